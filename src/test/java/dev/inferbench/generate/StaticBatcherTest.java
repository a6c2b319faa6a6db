package dev.inferbench.generate;

import dev.inferbench.BenchException;
import dev.inferbench.engine.DecodeState;
import dev.inferbench.engine.Decoder;
import dev.inferbench.engine.DecoderLayout;
import dev.inferbench.engine.TokenChoice;
import dev.inferbench.engine.Device;
import dev.inferbench.engine.EngineKind;
import dev.inferbench.engine.EngineSettings;
import dev.inferbench.model.Llama;
import dev.inferbench.model.OnnxExporter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Static batching of generation requests on the zoo decoder: prompts of different lengths, left-padded into one batch,
 * give each request exactly the tokens it gets alone; each request gets its own number of tokens, all its first one
 * from the one prefill; and the setup's check fails a decoder whose padding leaks into attention.
 */
class StaticBatcherTest {
    @TempDir
    Path dir;

    private Path tiny() throws Exception {
        Path file = dir.resolve("llama-tiny.onnx");
        try (OutputStream out = Files.newOutputStream(file)) {
            new OnnxExporter(7).write(Llama.tiny().build(), out);
        }
        return file;
    }

    private static RequestLengths pairs(int[]... pairs) {
        return new RequestLengths(null, null, Arrays.stream(pairs).map(p -> new int[]{p[0], p[1], 0}).toList(), "test");
    }

    @Test
    void aPaddedBatchGivesEachRequestTheTokensItGetsAlone() throws Exception {
        try (Decoder decoder = EngineKind.ORT.openDecoder(tiny(), Device.CPU, EngineSettings.threads(1));
             StaticBatcher batcher = new StaticBatcher(decoder, 3)) {
            RequestLengths.Drawn drawn = pairs(new int[]{4, 9}, new int[]{17, 5}, new int[]{9, 12}).draw(3, 21, 512);
            batcher.use(drawn);
            long[][] together = {new long[9], new long[5], new long[12]};
            long[][] times = batcher.serve(new int[]{0, 1, 2}, together);
            assertThat(Arrays.stream(times).mapToInt(t -> t.length)).containsExactly(9, 5, 12);
            assertThat(times[0][0]).isEqualTo(times[1][0]).isEqualTo(times[2][0]); // one prefill: one first token
            assertThat(times[1][4]).isLessThan(times[2][11]); // the shorter output is done earlier
            // each request is told done at its own last token, while the batch runs on for the longest
            long[] doneAt = new long[3];
            long[][] told = batcher.serve(new int[]{0, 1, 2}, (k, nanos) -> doneAt[k] = nanos);
            for (int s = 0; s < 3; s++) {
                assertThat(doneAt[s]).isEqualTo(told[s][told[s].length - 1]);
            }
            assertThat(doneAt[1]).isLessThan(doneAt[2]);
            // the cache a batch holds: each sequence the longest prompt (padding) and the longest output
            assertThat(batcher.cacheTokens(new int[]{0, 1, 2})).isEqualTo(3 * (17 + 12));
            assertThat(batcher.cacheTokens(new int[]{0})).isEqualTo(4 + 9);
            for (int s = 0; s < 3; s++) {
                long[][] alone = {new long[together[s].length]};
                batcher.serve(new int[]{s}, alone);
                assertThat(alone[0]).as("request %d", s).containsExactly(together[s]);
            }
            // seeded weights give varied tokens, and different prompts different outputs
            assertThat(Arrays.stream(together[2]).distinct().count()).isGreaterThan(2);
            assertThat(together[0]).isNotEqualTo(Arrays.copyOf(together[2], 9));
            batcher.check(512, 3, 3, 7, 5);
        }
    }

    @Test
    void aSamplingBatcherDrawsItsTokensSeeded() throws Exception {
        Sampling topK = Sampling.parse("top-k=40&temperature=2");
        RequestLengths.Drawn drawn = pairs(new int[]{6, 16}, new int[]{9, 16}).draw(2, 21, 512);
        long[][][] runs = new long[3][][];
        try (Decoder decoder = EngineKind.ORT.openDecoder(tiny(), Device.CPU, EngineSettings.threads(1))) {
            for (int run = 0; run < 3; run++) {
                try (StaticBatcher batcher = run < 2 ? new StaticBatcher(decoder, 2, topK.sampler(5), null)
                        : new StaticBatcher(decoder, 2)) {
                    batcher.use(drawn);
                    runs[run] = new long[][]{new long[16], new long[16]};
                    batcher.serve(new int[]{0, 1}, runs[run]);
                }
            }
        }
        assertThat(runs[1]).isDeepEqualTo(runs[0]); // the same seed draws the same tokens
        assertThat(Arrays.deepEquals(runs[0], runs[2])).isFalse(); // and they are not the greedy ones
        assertThat(Arrays.stream(runs[0]).flatMapToLong(Arrays::stream)).allMatch(t -> t >= 0 && t < 512);
    }

    @Test
    void theCheckFailsADecoderWhosePaddingIsNotMasked() throws Exception {
        try (Decoder real = EngineKind.ORT.openDecoder(tiny(), Device.CPU, EngineSettings.threads(1));
             StaticBatcher batcher = new StaticBatcher(ignoringPadding(real), 2)) {
            assertThatThrownBy(() -> batcher.check(512, 3, 3, 7, 5)).isInstanceOf(BenchException.class)
                    .hasMessageStartingWith("a padded batch changed a request's tokens: prompt of 3 tokens gave")
                    .hasMessageEndingWith("expected the same tokens (the decoder must honour attention_mask and"
                            + " position_ids)");
        }
    }

    /** The real decoder, but each state drops the padding it is told of: pad ids are then attended to. */
    private static Decoder ignoringPadding(Decoder real) {
        return new Decoder() {
            @Override
            public DecoderLayout layout() {
                return real.layout();
            }

            @Override
            public DecodeState begin(int batch, TokenChoice choice) throws BenchException {
                DecodeState s = real.begin(batch, choice);
                return new DecodeState() {
                    @Override
                    public void step(long[] tokens, int n, long[] next) throws BenchException {
                        s.step(tokens, n, next);
                    }

                    @Override
                    public void pad(int[] leading) {
                    }

                    @Override
                    public int cached() {
                        return s.cached();
                    }

                    @Override
                    public long cacheBytes() {
                        return s.cacheBytes();
                    }

                    @Override
                    public void reset() {
                        s.reset();
                    }

                    @Override
                    public void close() {
                        s.close();
                    }
                };
            }

            @Override
            public void close() {
            }
        };
    }

    @Test
    void requestsOfAStepTakeTheirLengthsAndPromptsFromTheDraw() throws Exception {
        RequestLengths.Drawn d = pairs(new int[]{2, 3}).draw(2, 5, 512);
        assertThat(d.ids()[0]).hasSize(2);
        assertThat(Arrays.stream(d.ids()[0]).allMatch(id -> id >= 0 && id < 512)).isTrue();
        assertThat(d.ids()[0]).isNotEqualTo(d.ids()[1]);
        assertThat(List.of(d.output()[0], d.output()[1])).containsExactly(3, 3);
    }
}

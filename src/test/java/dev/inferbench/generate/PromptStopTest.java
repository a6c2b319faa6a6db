package dev.inferbench.generate;

import dev.inferbench.engine.DecodeState;
import dev.inferbench.engine.Decoder;
import dev.inferbench.engine.Device;
import dev.inferbench.engine.EngineKind;
import dev.inferbench.engine.EngineSettings;
import dev.inferbench.engine.TokenChoice;
import dev.inferbench.model.Llama;
import dev.inferbench.model.OnnxExporter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real prompts on the zoo decoder (llama-tiny, seeded): a prompt file encoded by a test tokenizer, batches taking the
 * file's prompts in order, and each sequence stopping at its first end-of-sequence token, chosen here as a token the
 * seeded model is seen to emit without a stop (so the stop is known to be reached). The length figures are those of
 * the sequences that ran.
 */
class PromptStopTest {
    private static final int OUTPUT = 12;
    @TempDir
    Path dir;

    private Path tiny() throws Exception {
        Path file = dir.resolve("llama-tiny.onnx");
        try (OutputStream out = Files.newOutputStream(file)) {
            new OnnxExporter(7).write(Llama.tiny().build(), out);
        }
        TestTokenizer.write(dir, 512);
        return file;
    }

    /** The tokens each prompt gets alone, greedily, without a stop. */
    private static long[] alone(Decoder decoder, long[] prompt) throws Exception {
        try (DecodeState state = decoder.begin(1)) {
            Generation g = new Generation(state, 1, Prompts.of(List.of(prompt)), OUTPUT, null);
            g.request();
            return g.output();
        }
    }

    private static int firstIndex(long[] tokens, long token) {
        for (int i = 0; i < tokens.length; i++) {
            if (tokens[i] == token) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void eachSequenceStopsAtItsFirstEndOfSequenceToken() throws Exception {
        Path model = tiny();
        PromptFile file = PromptFile.read(Files.writeString(dir.resolve("p.txt"),
                "t5 t17 t300 t42 t8\nt1 t2\nt99 t98 t97\n"));
        try (Decoder decoder = EngineKind.ORT.openDecoder(model, Device.CPU, EngineSettings.threads(1))) {
            Prompts plain = Prompts.encode(file, model, decoder.layout().vocab());
            assertThat(plain.ids()).containsExactly(new long[]{5, 17, 300, 42, 8}, new long[]{1, 2},
                    new long[]{99, 98, 97});
            long[][] free = new long[3][];
            for (int i = 0; i < 3; i++) {
                free[i] = alone(decoder, plain.ids().get(i));
            }
            long eos = free[0][3]; // a token the first prompt's sequence emits by its fourth step
            Files.writeString(dir.resolve("generation_config.json"), "{\"eos_token_id\": " + eos + "}");
            Prompts prompts = Prompts.encode(file, model, decoder.layout().vocab());
            assertThat(prompts.stop()).containsExactly(eos);
            int[] expected = new int[3];
            for (int i = 0; i < 3; i++) {
                int at = firstIndex(free[i], eos);
                expected[i] = at < 0 ? OUTPUT : at + 1;
            }
            assertThat(expected[0]).isLessThanOrEqualTo(4);

            try (DecodeState state = decoder.begin(2)) {
                Generation g = new Generation(state, 2, prompts, OUTPUT, null);
                RequestTimes first = g.request(); // prompts 1 and 2, padded to 5
                assertThat(first.promptTokens()).containsExactly(5, 2);
                assertThat(first.promptLen()).isEqualTo(5);
                assertThat(first.outputTokens()).containsExactly(expected[0], expected[1]);
                assertThat(first.outputLen()).isEqualTo(Math.max(expected[0], expected[1]));
                long[] out = g.output();
                for (int s = 0; s < 2; s++) {
                    assertThat(Arrays.copyOfRange(out, s * OUTPUT, s * OUTPUT + expected[s])).as("sequence %d", s)
                            .containsExactly(Arrays.copyOf(free[s], expected[s]));
                }
                RequestTimes second = g.request(); // prompts 3 and 1: the file's order, round again
                assertThat(second.promptTokens()).containsExactly(3, 5);
                assertThat(second.outputTokens()).containsExactly(expected[2], expected[0]);
                assertThat(second.cacheBytes()).isEqualTo((long) 2 * (5 + second.outputLen() - 1)
                        * decoder.layout().cacheBytesPerToken());

                Map<String, Double> figures = GenerationFigures.lengths(new int[]{5, 2, 3, 5},
                        new int[]{expected[0], expected[1], expected[2], expected[0]});
                assertThat(GenerationFigures.of(List.of(first, second))).containsAllEntriesOf(figures);
                assertThat(figures.get("gen.prompt.max")).isEqualTo(5.0);
                assertThat(GenerationFigures.of(List.of(first, second)).get(GenerationFigures.OUTPUT_TOKENS))
                        .isLessThanOrEqualTo(1e3 * (expected[0] * 2 + expected[1] + expected[2])
                                / (first.endToEndMs() + second.endToEndMs()) + 1e-9);
            }
        }
    }

    @Test
    void underLoadARequestEndsAtItsEndOfSequenceToken() throws Exception {
        Path model = tiny();
        try (Decoder decoder = EngineKind.ORT.openDecoder(model, Device.CPU, EngineSettings.threads(1))) {
            long[] a = {5, 17, 300, 42, 8};
            long[] b = {1, 2};
            long[] freeA = alone(decoder, a);
            long eos = freeA[2];
            Prompts prompts = Prompts.of(List.of(a, b), eos);
            RequestLengths lengths = new RequestLengths(null, new RequestLengths.Dist(OUTPUT, OUTPUT), List.of(), "",
                    null);
            RequestLengths.Drawn drawn = lengths.draw(2, 3, 512, prompts);
            assertThat(drawn.prompt()).containsExactlyInAnyOrder(5, 2);
            try (StaticBatcher batcher = new StaticBatcher(decoder, 2, TokenChoice.GREEDY, prompts)) {
                batcher.use(drawn);
                long[][] times = batcher.serve(new int[]{0, 1});
                int ia = drawn.prompt()[0] == 5 ? 0 : 1;
                assertThat(times[ia]).hasSize(firstIndex(freeA, eos) + 1);
                long[] freeB = alone(decoder, b);
                int atB = firstIndex(freeB, eos);
                assertThat(times[1 - ia]).hasSize(atB < 0 ? OUTPUT : atB + 1);
            }
        }
    }

    @Test
    void theLoadOrderIsASeededPermutationOfTheFile() {
        Prompts prompts = Prompts.of(List.of(new long[]{1}, new long[]{2, 2}, new long[]{3, 3, 3}, new long[]{4, 4, 4,
                4}));
        RequestLengths lengths = new RequestLengths(null, new RequestLengths.Dist(4, 4), List.of(), "", null);
        RequestLengths.Drawn one = lengths.draw(8, 11, 512, prompts);
        assertThat(Arrays.copyOfRange(one.prompt(), 0, 4)).containsExactlyInAnyOrder(1, 2, 3, 4);
        assertThat(Arrays.copyOfRange(one.prompt(), 4, 8)).containsExactly(Arrays.copyOfRange(one.prompt(), 0, 4));
        assertThat(lengths.draw(8, 11, 512, prompts).prompt()).containsExactly(one.prompt());
        boolean differs = false;
        for (long seed = 12; seed < 20 && !differs; seed++) {
            differs = !Arrays.equals(lengths.draw(8, seed, 512, prompts).prompt(), one.prompt());
        }
        assertThat(differs).as("another seed, another order").isTrue();
    }
}

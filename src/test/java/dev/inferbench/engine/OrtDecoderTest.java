package dev.inferbench.engine;

import dev.inferbench.model.Llama;
import dev.inferbench.model.OnnxExporter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** The zoo decoder on ONNX Runtime: greedy decoding with the KV cache gives the tokens of decoding without it. */
class OrtDecoderTest {
    @TempDir
    Path dir;

    static Path writeTiny(Path dir) throws Exception {
        Path file = dir.resolve("llama-tiny.onnx");
        try (OutputStream out = Files.newOutputStream(file)) {
            new OnnxExporter(7).write(Llama.tiny().build(), out);
        }
        return file;
    }

    /** Greedy tokens of {@code batch} prompts: with the cache (prefill, then one token a step) or recomputing all. */
    static long[][] greedy(Decoder decoder, long[][] prompts, int outputLen, boolean withCache) throws Exception {
        int batch = prompts.length;
        int p = prompts[0].length;
        long[][] seq = new long[batch][p + outputLen];
        for (int s = 0; s < batch; s++) {
            System.arraycopy(prompts[s], 0, seq[s], 0, p);
        }
        long[] next = new long[batch];
        try (DecodeState state = decoder.begin(batch)) {
            for (int t = 0; t < outputLen; t++) {
                int len = p + t;
                if (withCache) {
                    int n = t == 0 ? p : 1;
                    state.step(columns(seq, len - n, n), n, next);
                } else {
                    state.reset();
                    state.step(columns(seq, 0, len), len, next);
                }
                for (int s = 0; s < batch; s++) {
                    seq[s][len] = next[s];
                }
            }
            if (withCache) {
                assertThat(state.cached()).isEqualTo(p + outputLen - 1);
                assertThat(state.cacheBytes()).isEqualTo(batch * (p + outputLen - 1L)
                        * decoder.layout().cacheBytesPerToken());
            }
        }
        long[][] out = new long[batch][];
        for (int s = 0; s < batch; s++) {
            out[s] = Arrays.copyOfRange(seq[s], p, p + outputLen);
        }
        return out;
    }

    private static long[] columns(long[][] seq, int from, int n) {
        long[] flat = new long[seq.length * n];
        for (int s = 0; s < seq.length; s++) {
            System.arraycopy(seq[s], from, flat, s * n, n);
        }
        return flat;
    }

    static long[][] prompts(int batch, int len, int vocab, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        long[][] p = new long[batch][len];
        for (long[] row : p) {
            for (int i = 0; i < len; i++) {
                row[i] = r.nextInt(vocab);
            }
        }
        return p;
    }

    @Test
    void cachedGreedyDecodingMatchesRecomputing() throws Exception {
        Path file = writeTiny(dir);
        try (Decoder decoder = EngineKind.ORT.openDecoder(file, Device.CPU, EngineSettings.threads(1))) {
            DecoderLayout layout = decoder.layout();
            assertThat(layout).isEqualTo(new DecoderLayout(2, 2, 16, 512, true, java.util.OptionalInt.of(256)));
            long[][] prompts = prompts(2, 9, layout.vocab(), 11);
            long[][] cached = greedy(decoder, prompts, 12, true);
            long[][] recomputed = greedy(decoder, prompts, 12, false);
            assertThat(cached).isDeepEqualTo(recomputed);
            // a model that ignored its input would repeat one token: seeded weights give varied ones
            assertThat(Arrays.stream(cached[0]).distinct().count()).isGreaterThan(2);
            assertThat(cached[0]).isNotEqualTo(cached[1]);
        }
    }

    @Test
    void aRequestAfterResetRepeatsTheFirst() throws Exception {
        try (Decoder decoder = EngineKind.ORT.openDecoder(writeTiny(dir), Device.CPU, EngineSettings.threads(1))) {
            long[][] prompts = prompts(1, 5, 512, 3);
            assertThat(greedy(decoder, prompts, 6, true)).isDeepEqualTo(greedy(decoder, prompts, 6, true));
        }
    }
}

package dev.inferbench.engine;

import dev.inferbench.tensor.Half;

import java.nio.FloatBuffer;

/** Greedy decoding's choice: the highest logit of each sequence's last position (the first on ties, as torch does). */
final class Greedy {
    private Greedy() {
    }

    /**
     * @param logits {@code [batch, n, vocab]}, absolute indexing from 0
     * @param next   receives one token per sequence
     */
    static void argmax(FloatBuffer logits, int batch, int n, int vocab, long[] next) {
        for (int s = 0; s < batch; s++) {
            int base = (s * n + n - 1) * vocab;
            int best = 0;
            float max = logits.get(base);
            for (int v = 1; v < vocab; v++) {
                float x = logits.get(base + v);
                if (x > max) {
                    max = x;
                    best = v;
                }
            }
            next[s] = best;
        }
    }

    /**
     * The same choice from float16 logits as they are, each value looked up once in {@link Half}'s table as it is
     * compared: one pass over the row, no float32 copy of it.
     *
     * @param last each sequence's last position, {@code [batch, vocab]} float16 bits
     */
    static void argmaxHalf(short[] last, int batch, int vocab, long[] next) {
        for (int s = 0; s < batch; s++) {
            int base = s * vocab;
            int best = 0;
            float max = Half.toFloat(last[base]);
            for (int v = 1; v < vocab; v++) {
                float x = Half.toFloat(last[base + v]);
                if (x > max) {
                    max = x;
                    best = v;
                }
            }
            next[s] = best;
        }
    }
}

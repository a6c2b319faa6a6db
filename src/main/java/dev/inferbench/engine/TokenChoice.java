package dev.inferbench.engine;

import java.nio.FloatBuffer;

/**
 * How a decoder picks each sequence's next token from the logits of its last position: greedily (the default) or by
 * a sampler. The decoder hands float32 logits whatever the model's own type (a float16 model's are converted at
 * the boundary, last positions only).
 */
@FunctionalInterface
public interface TokenChoice {
    /** The highest logit, the first on ties (as torch's argmax). */
    TokenChoice GREEDY = Greedy::argmax;

    /**
     * @param logits {@code [batch, n, vocab]}, absolute indexing from 0: sequence s's last position starts at
     *               {@code (s * n + n - 1) * vocab}
     * @param next   receives one token per sequence
     */
    void choose(FloatBuffer logits, int batch, int n, int vocab, long[] next);
}

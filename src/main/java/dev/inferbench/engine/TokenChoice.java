package dev.inferbench.engine;

import java.nio.FloatBuffer;

/**
 * How a decoder picks each sequence's next token from the logits of its last position: greedily (the default) or by
 * a sampler. The decoder hands float32 logits whatever the model's own type (a float16 model's are converted at
 * the boundary, last positions only), except to a choice that {@link #choosesHalf}: greedy reads float16 bits as they
 * are, in one pass.
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

    /**
     * Whether this choice reads a float16 model's logits as they are ({@link #chooseHalf}): greedy does, in one pass;
     * a sampler needs the float32 row.
     */
    default boolean choosesHalf() {
        return false;
    }

    /**
     * The choice from float16 logits, for a choice that {@link #choosesHalf}.
     *
     * @param last each sequence's last position, {@code [batch, vocab]} float16 bits
     */
    default void chooseHalf(short[] last, int batch, int vocab, long[] next) {
        throw new UnsupportedOperationException("this token choice reads float32 logits");
    }

    /** The greedy choice from float16 bits ({@link #chooseHalf}'s layout), in one pass. */
    static void greedyHalf(short[] last, int batch, int vocab, long[] next) {
        Greedy.argmaxHalf(last, batch, vocab, next);
    }
}

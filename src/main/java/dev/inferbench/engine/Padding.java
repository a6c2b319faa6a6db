package dev.inferbench.engine;

import java.util.Arrays;

/**
 * Left padding of a batch of sequences of different lengths (static batching of requests with different prompts):
 * sequence s's first {@code leading[s]} cache positions are padding, masked out of attention ({@code attention_mask}
 * 0) and not counted in its positions, so that each sequence sees only its own tokens and every sequence's next token
 * lands at the same cache position. Hugging Face's batched generation pads the same way.
 */
record Padding(int[] leading) {
    static Padding none(int batch) {
        return new Padding(new int[batch]);
    }

    /** The padding of a decode state's {@code batch} sequences, one leading count each. */
    static Padding of(int[] leading, int batch) {
        if (leading.length != batch) {
            throw new IllegalArgumentException("padding for " + leading.length + " sequences, batch " + batch);
        }
        return new Padding(leading);
    }

    Padding {
        if (Arrays.stream(leading).anyMatch(p -> p < 0)) {
            throw new IllegalArgumentException("negative padding " + Arrays.toString(leading));
        }
        leading = leading.clone();
    }

    /** The mask at cache position {@code j} of sequence {@code s}: 0 over its padding, 1 over its tokens. */
    long mask(int s, int j) {
        return j < leading[s] ? 0 : 1;
    }

    /** The position of cache slot {@code j} of sequence {@code s}: counted from its first token (0 over padding). */
    long position(int s, int j) {
        return Math.max(0, j - leading[s]);
    }
}

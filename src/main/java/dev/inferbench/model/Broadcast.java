package dev.inferbench.model;

import java.util.Arrays;

/**
 * numpy's (and ONNX's) broadcasting of two shapes, the one rule for the graph builder and for shape inference over
 * ONNX files: the shapes are aligned at their last dimension, a missing or size-1 dimension takes the other's.
 */
public final class Broadcast {
    private Broadcast() {
    }

    /**
     * The shape {@code a} and {@code b} broadcast to. Where two dimensions differ and neither is 1 the result keeps
     * {@code a}'s: shape inference over a file goes on with what the file says (an ONNX Runtime session would refuse
     * the file, not this estimate); {@link #strict} is for graphs being built, where that is a mistake.
     */
    public static long[] shape(long[] a, long[] b) {
        int rank = Math.max(a.length, b.length);
        long[] out = new long[rank];
        for (int i = 0; i < rank; i++) {
            long da = dim(a, i, rank);
            long db = dim(b, i, rank);
            out[i] = da == 1 ? db : da;
        }
        return out;
    }

    /** {@link #shape}, refusing two dimensions that differ where neither is 1. */
    public static long[] strict(long[] a, long[] b) {
        int rank = Math.max(a.length, b.length);
        for (int i = 0; i < rank; i++) {
            long da = dim(a, i, rank);
            long db = dim(b, i, rank);
            if (da != db && da != 1 && db != 1) {
                throw new IllegalArgumentException("cannot broadcast " + Arrays.toString(a) + " with " + Arrays.toString(b));
            }
        }
        return shape(a, b);
    }

    /** Dimension {@code i} of {@code x} aligned right in a shape of {@code rank} dimensions; 1 where x has none. */
    private static long dim(long[] x, int i, int rank) {
        return i < rank - x.length ? 1 : x[i - (rank - x.length)];
    }
}

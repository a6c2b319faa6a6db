package dev.inferbench.model;

import dev.inferbench.model.Graph.Init;
import dev.inferbench.model.Graph.Op;
import dev.inferbench.model.Graph.Param;
import dev.inferbench.model.Graph.Value;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static dev.inferbench.model.Graph.attrs;

/**
 * The operations a Llama-family decoder adds to {@link SequenceOps}: RMSNorm, SiLU, projections without bias (one
 * of them tied to the embedding table), the rotary position embedding, concatenation (the KV cache) and the causal
 * mask over cached and new positions. Per-sample shapes as everywhere in the Graph API; {@link Graph#PAST} and
 * {@link Graph#TOTAL} are the cached and cached-plus-new lengths.
 */
public final class DecoderOps {
    private final Graph g;

    public DecoderOps(Graph g) {
        this.g = g;
    }

    /** {@code x / sqrt(mean(x^2) + eps) * weight} over the last axis (Llama's RMSNorm, weight starting at 1). */
    public Value rmsNorm(String layer, Value x, double epsilon) {
        Param w = new Param(layer + ".weight", new long[]{x.dim(-1)}, Init.constant(1), true);
        return g.add(Op.RMS_NORM, layer, List.of(x), g.value(x.shape()), attrs("epsilon", (float) epsilon), List.of(w));
    }

    /** {@code x * sigmoid(x)}. */
    public Value silu(Value x) {
        return g.add(Op.SILU, "silu", List.of(x), g.value(x.shape()), Map.of(), List.of());
    }

    /** {@code x @ W} over the last axis, no bias, W stored {@code [in, out]}. */
    public Value project(String layer, Value x, int out) {
        long in = x.dim(-1);
        Param w = new Param(layer + ".weight", new long[]{in, out}, Init.uniform(Math.sqrt(3) / Math.sqrt(in)), true);
        return g.add(Op.PROJECT, layer, List.of(x), g.value(withLast(x, out)), attrs("transposed", false), List.of(w));
    }

    /**
     * {@code x @ table^T} with a {@code [rows, width]} table another node already owns (tied embeddings): the file
     * holds the table once and the parameter count counts it once.
     */
    public Value projectTied(String layer, Value x, Param table) {
        if (table.shape()[1] != x.dim(-1)) {
            throw new IllegalArgumentException(layer + ": tied table " + Arrays.toString(table.shape())
                    + " does not match width " + x.dim(-1));
        }
        return g.add(Op.PROJECT, layer, List.of(x), g.value(withLast(x, table.shape()[0])), attrs("transposed", true),
                List.of(table));
    }

    /** {@code a} and {@code b} joined along per-sample {@code axis}, whose length becomes {@code length}. */
    public Value concat(Value a, Value b, int axis, long length) {
        long[] shape = a.shape().clone();
        shape[axis] = length;
        return g.add(Op.CONCAT, "concat", List.of(a, b), g.value(shape), attrs("axis", axis), List.of());
    }

    /**
     * {@code cos} (or {@code sin}) of the rotary angles of int64 {@code positions} {@code [SEQ]}: angle
     * {@code pos * theta^(-2i/d)} for the first half of the head and again for the second, as Hugging Face's
     * {@code rotate_half} convention pairs them. Shape {@code [1, SEQ, headDim]}, broadcast over heads.
     */
    public Value ropeAngles(Value positions, int headDim, double theta, boolean sine) {
        return g.add(Op.ROPE_ANGLES, sine ? "rope_sin" : "rope_cos", List.of(positions),
                g.value(1, positions.dim(-1), headDim), attrs("headDim", headDim, "theta", theta, "sine", sine), List.of());
    }

    /** {@code x * cos + rotate_half(x) * sin} for {@code x} of {@code [heads, SEQ, headDim]}. */
    public Value rotary(Value x, Value cos, Value sin) {
        return g.add(Op.ROTARY, "rotary", List.of(x, cos, sin), g.value(x.shape()), Map.of(), List.of());
    }

    /**
     * The additive score bias {@code [1, 1, SEQ, TOTAL]} of a causal decoder: query {@code i} (absolute position
     * {@code past + i}) sees key {@code j} when {@code j <= past + i} and the attention mask {@code [TOTAL]} has a 1
     * there; {@code past} is the mask's length minus the new tokens' ({@code ids}, {@code [SEQ]}).
     */
    public Value causalBias(Value mask, Value ids) {
        return g.add(Op.CAUSAL_BIAS, "causal_bias", List.of(mask, ids), g.value(1, 1, ids.dim(-1), mask.dim(-1)),
                attrs("masked", SequenceOps.MASKED), List.of());
    }

    /** The inverse frequencies of each of the {@code headDim} lanes: {@code theta^(-2(i mod d/2)/d)}. */
    static float[] inverseFrequencies(int headDim, double theta) {
        float[] f = new float[headDim];
        int half = headDim / 2;
        for (int i = 0; i < half; i++) {
            f[i] = (float) Math.pow(theta, -2.0 * i / headDim);
            f[i + half] = f[i];
        }
        return f;
    }

    private static long[] withLast(Value x, long last) {
        long[] shape = x.shape().clone();
        shape[shape.length - 1] = last;
        return shape;
    }
}

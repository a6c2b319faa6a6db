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
 * The operations of transformer networks over per-sample {@code [seq, hidden]} values: dense layers on the last
 * axis, matrix products, layer norm, GELU, reshapes, embeddings, the class token and the attention-mask bias.
 * Each adds nodes to one {@link Graph}.
 */
public final class SequenceOps {
    /** Added to the scores of masked positions: large enough to vanish in softmax, small enough to stay finite. */
    static final float MASKED = -10000f;

    private final Graph g;

    public SequenceOps(Graph g) {
        this.g = g;
    }

    public Graph graph() {
        return g;
    }

    /** Softmax over one per-sample axis. */
    public Value softmax(Value x, int axis) {
        return g.softmax(x, axis);
    }

    /** {@code x @ W + b} over the last axis of any rank, W stored {@code [in, out]}. */
    public Value dense(String layer, Value x, int out) {
        long in = x.dim(-1);
        double bound = 1.0 / Math.sqrt(in);
        List<Param> params = List.of(
                new Param(layer + ".weight", new long[]{in, out}, Init.uniform(Math.sqrt(3) * bound), true),
                new Param(layer + ".bias", new long[]{out}, Init.uniform(bound), true));
        long[] shape = x.shape().clone();
        shape[shape.length - 1] = out;
        return g.add(Op.DENSE, layer, List.of(x), g.value(shape), Map.of(), params);
    }

    /** Batched matrix product of two values, numpy semantics (leading dims broadcast). */
    public Value matmul(Value a, Value b) {
        if (a.dim(-1) != b.dim(-2)) {
            throw new IllegalArgumentException("matmul of " + Arrays.toString(a.shape()) + " and "
                    + Arrays.toString(b.shape()));
        }
        long[] lead = Broadcast.strict(Arrays.copyOf(a.shape(), a.rank() - 2), Arrays.copyOf(b.shape(), b.rank() - 2));
        long[] shape = Arrays.copyOf(lead, lead.length + 2);
        shape[lead.length] = a.dim(-2);
        shape[lead.length + 1] = b.dim(-1);
        return g.add(Op.MATMUL, "matmul", List.of(a, b), g.value(shape), Map.of(), List.of());
    }

    public Value scale(Value x, double factor) {
        return g.add(Op.SCALE, "scale", List.of(x), g.value(x.shape()), attrs("factor", (float) factor), List.of());
    }

    /** Layer norm over the last axis with a learned scale and shift. */
    public Value layerNorm(String layer, Value x, double epsilon) {
        long[] c = {x.dim(-1)};
        List<Param> params = List.of(
                new Param(layer + ".weight", c, Init.constant(1), true),
                new Param(layer + ".bias", c, Init.constant(0), true));
        return g.add(Op.LAYER_NORM, layer, List.of(x), g.value(x.shape()), attrs("epsilon", (float) epsilon), params);
    }

    /** The exact (erf) GELU of BERT and ViT. */
    public Value gelu(Value x) {
        return g.add(Op.GELU, "gelu", List.of(x), g.value(x.shape()), Map.of(), List.of());
    }

    public Value tanh(Value x) {
        return g.add(Op.TANH, "tanh", List.of(x), g.value(x.shape()), Map.of(), List.of());
    }

    /** A new per-sample shape; at most one dimension may be dynamic ({@link Graph#SEQ}, PAST or TOTAL). */
    public Value reshape(Value x, long... shape) {
        if (Arrays.stream(shape).filter(d -> d < 0).count() > 1) {
            throw new IllegalArgumentException("reshape to " + Arrays.toString(shape) + ": one dynamic dim at most");
        }
        return g.add(Op.RESHAPE, "reshape", List.of(x), g.value(shape), attrs("shape", shape.clone()), List.of());
    }

    /** Permutes the per-sample axes. */
    public Value transpose(Value x, int... perm) {
        long[] shape = new long[perm.length];
        for (int i = 0; i < perm.length; i++) {
            shape[i] = x.shape()[perm[i]];
        }
        return g.add(Op.TRANSPOSE, "transpose", List.of(x), g.value(shape), attrs("perm", perm.clone()), List.of());
    }

    /** Looks up rows of a learned {@code [rows, width]} table by integer ids: {@code [seq] -> [seq, width]}. */
    public Value embedding(String layer, Value ids, int rows, int width) {
        long[] shape = Arrays.copyOf(ids.shape(), ids.rank() + 1);
        shape[ids.rank()] = width;
        return g.add(Op.EMBEDDING, layer, List.of(ids), g.value(shape), Map.of(), List.of(table(layer, rows, width)));
    }

    /** Adds rows {@code 0..seq-1} of a learned {@code [rows, width]} table: absolute position embeddings. */
    public Value positions(String layer, Value x, int rows) {
        return g.add(Op.POSITIONS, layer, List.of(x), g.value(x.shape()), Map.of(),
                List.of(table(layer, rows, (int) x.dim(-1))));
    }

    /** Adds one row of a learned {@code [rows, width]} table to every position (BERT's token type 0). */
    public Value addRow(String layer, Value x, int rows, int row) {
        return g.add(Op.ADD_ROW, layer, List.of(x), g.value(x.shape()), attrs("row", row),
                List.of(table(layer, rows, (int) x.dim(-1))));
    }

    /** Prepends a learned token to a {@code [seq, width]} value (ViT's class token): {@code [seq + 1, width]}. */
    public Value classToken(String paramName, Value x) {
        Param token = new Param(paramName, new long[]{1, 1, x.dim(-1)}, Init.uniform(0.02 * Math.sqrt(3)), true);
        long seq = x.dim(0) == Graph.SEQ ? Graph.SEQ : x.dim(0) + 1;
        return g.add(Op.CLASS_TOKEN, paramName, List.of(x), g.value(seq, x.dim(-1)), Map.of(), List.of(token));
    }

    /** Index {@code index} of per-sample axis {@code axis}, which disappears (the CLS token of BERT and ViT). */
    public Value select(Value x, int axis, int index) {
        long[] shape = new long[x.rank() - 1];
        for (int i = 0, j = 0; i < x.rank(); i++) {
            if (i != axis) {
                shape[j++] = x.shape()[i];
            }
        }
        return g.add(Op.SELECT, "select", List.of(x), g.value(shape), attrs("axis", axis, "index", index), List.of());
    }

    /** An attention mask {@code [seq]} of 1 (attend) and 0 (padding) as an additive score bias {@code [1, 1, seq]}. */
    public Value maskBias(Value mask) {
        return g.add(Op.MASK_BIAS, "mask_bias", List.of(mask), g.value(1, 1, mask.dim(-1)),
                attrs("masked", MASKED), List.of());
    }

    private static Param table(String layer, int rows, int width) {
        // BERT's N(0, 0.02) as a uniform of the same variance
        return new Param(layer + ".weight", new long[]{rows, width}, Init.uniform(0.02 * Math.sqrt(3)), true);
    }
}

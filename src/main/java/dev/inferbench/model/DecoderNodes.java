package dev.inferbench.model;

import ai.onnx.proto.OnnxMl.TensorProto.DataType;
import dev.inferbench.model.Graph.Node;
import org.tribuo.util.onnx.ONNXContext;
import org.tribuo.util.onnx.ONNXOperators;
import org.tribuo.util.onnx.ONNXRef;

import java.util.List;
import java.util.Map;

import static dev.inferbench.model.Graph.attrs;

/**
 * Renders {@link DecoderOps}' nodes as ONNX operators, in the forms ONNX Runtime's optimizer recognises where it has
 * a fused kernel (RMSNorm as Pow, ReduceMean, Add, Sqrt, Div, Mul: its SimplifiedLayerNormalization). Axes and
 * shapes gain the batch in front, as in {@link OnnxNodes}.
 */
final class DecoderNodes {
    private final OnnxNodes nodes;

    DecoderNodes(OnnxNodes nodes) {
        this.nodes = nodes;
    }

    ONNXRef<?> render(Node n, List<ONNXRef<?>> values, List<ONNXRef<?>> params, String out) {
        ONNXRef<?> x = values.get(0);
        String p = n.name();
        Map<String, Object> a = n.attrs();
        return switch (n.op()) {
            case RMS_NORM -> rmsNorm(p, x, params.get(0), (Float) a.get("epsilon"), out);
            case SILU -> op(ONNXOperators.MUL, List.of(x, op(ONNXOperators.SIGMOID, List.of(x), p + ".sigmoid")), out);
            case PROJECT -> op(OnnxOps.MAT_MUL, List.of(x, (Boolean) a.get("transposed")
                    ? nodes.op(OnnxOps.TRANSPOSE, List.of(params.get(0)), p + ".transpose", attrs("perm", new int[]{1, 0}))
                    : params.get(0)), out);
            case CONCAT -> nodes.op(ONNXOperators.CONCAT, List.of(x, values.get(1)), out,
                    attrs("axis", (Integer) a.get("axis") + 1));
            case ROPE_ANGLES -> angles(p, x, (Integer) a.get("headDim"), (Double) a.get("theta"),
                    (Boolean) a.get("sine"), out);
            case ROTARY -> rotary(p, x, values.get(1), values.get(2), (int) n.inputs().get(0).dim(-1), out);
            case CAUSAL_BIAS -> causalBias(p, x, values.get(1), (Float) a.get("masked"), out);
            default -> throw new IllegalArgumentException(n.op() + " is not a decoder op");
        };
    }

    private ONNXRef<?> rmsNorm(String p, ONNXRef<?> x, ONNXRef<?> weight, float eps, String out) {
        ONNXContext ctx = nodes.context();
        ONNXRef<?> square = op(ONNXOperators.POW, List.of(x, ctx.constant(p + ".two", 2f)), p + ".pow");
        Map<String, Object> reduce = attrs("axes", new int[]{-1});
        reduce.put("keepdims", 1);
        ONNXRef<?> mean = nodes.op(ONNXOperators.REDUCE_MEAN, List.of(square), p + ".mean", reduce);
        ONNXRef<?> root = op(OnnxOps.SQRT, List.of(op(ONNXOperators.ADD, List.of(mean, ctx.constant(p + ".eps", eps)),
                p + ".add")), p + ".sqrt");
        return op(ONNXOperators.MUL, List.of(op(ONNXOperators.DIV, List.of(x, root), p + ".div"), weight), out);
    }

    /** cos/sin(float(positions)[..., None] * invFreq), reshaped to [batch, 1, seq, d] to broadcast over heads. */
    private ONNXRef<?> angles(String p, ONNXRef<?> positions, int headDim, double theta, boolean sine, String out) {
        ONNXContext ctx = nodes.context();
        ONNXRef<?> f = nodes.op(ONNXOperators.CAST, List.of(positions), p + ".cast", attrs("to", DataType.FLOAT.getNumber()));
        ONNXRef<?> column = op(OnnxOps.RESHAPE, List.of(f, ctx.array(p + ".column", new long[]{0, -1, 1})), p + ".column");
        ONNXRef<?> angle = op(ONNXOperators.MUL, List.of(column,
                ctx.array(p + ".inv_freq", DecoderOps.inverseFrequencies(headDim, theta))), p + ".angle");
        ONNXRef<?> trig = op(sine ? OnnxOps.SIN : OnnxOps.COS, List.of(angle), p + ".trig");
        return op(OnnxOps.RESHAPE, List.of(trig, ctx.array(p + ".heads", new long[]{0, 1, -1, headDim})), out);
    }

    /** x * cos + concat(-x[..., d/2:], x[..., :d/2]) * sin. */
    private ONNXRef<?> rotary(String p, ONNXRef<?> x, ONNXRef<?> cos, ONNXRef<?> sin, int headDim, String out) {
        ONNXContext ctx = nodes.context();
        ONNXRef<?> last = ctx.array(p + ".axis", new long[]{-1});
        ONNXRef<?> first = op(OnnxOps.SLICE, List.of(x, ctx.array(p + ".lo", new long[]{0}),
                ctx.array(p + ".mid", new long[]{headDim / 2}), last), p + ".first");
        ONNXRef<?> second = op(OnnxOps.SLICE, List.of(x, ctx.array(p + ".mid2", new long[]{headDim / 2}),
                ctx.array(p + ".hi", new long[]{headDim}), last), p + ".second");
        ONNXRef<?> rotated = nodes.op(ONNXOperators.CONCAT, List.of(op(ONNXOperators.NEG, List.of(second), p + ".neg"),
                first), p + ".rotate_half", attrs("axis", -1));
        return op(ONNXOperators.ADD, List.of(op(ONNXOperators.MUL, List.of(x, cos), p + ".cos"),
                op(ONNXOperators.MUL, List.of(rotated, sin), p + ".sin")), out);
    }

    /**
     * where(range(total) <= range(past, total)[:, None], 0, masked) + (1 - float(mask)) * masked, as
     * [batch, 1, 1, seq, total]: the grouped scores' shape.
     */
    private ONNXRef<?> causalBias(String p, ONNXRef<?> mask, ONNXRef<?> ids, float masked, String out) {
        ONNXContext ctx = nodes.context();
        ONNXRef<?> total = length(p + ".total", mask);
        ONNXRef<?> past = op(ONNXOperators.SUB, List.of(total, length(p + ".seq", ids)), p + ".past");
        ONNXRef<?> one = ctx.constant(p + ".one", 1L);
        ONNXRef<?> queries = op(OnnxOps.RESHAPE, List.of(op(OnnxOps.RANGE, List.of(past, total, one), p + ".queries"),
                ctx.array(p + ".column", new long[]{-1, 1})), p + ".query_column");
        ONNXRef<?> keys = op(OnnxOps.RANGE, List.of(ctx.constant(p + ".zero", 0L), total, one), p + ".keys");
        ONNXRef<?> causal = op(ONNXOperators.WHERE, List.of(op(ONNXOperators.LESS_OR_EQUAL, List.of(keys, queries),
                p + ".visible"), ctx.constant(p + ".open", 0f), ctx.constant(p + ".masked", masked)), p + ".causal");
        ONNXRef<?> f = nodes.op(ONNXOperators.CAST, List.of(mask), p + ".cast", attrs("to", DataType.FLOAT.getNumber()));
        ONNXRef<?> padding = op(ONNXOperators.MUL, List.of(op(ONNXOperators.SUB, List.of(ctx.constant(p + ".unit", 1f), f),
                p + ".invert"), ctx.constant(p + ".pad_masked", masked)), p + ".padding");
        ONNXRef<?> padded = op(OnnxOps.RESHAPE, List.of(padding, ctx.array(p + ".shape", new long[]{0, 1, 1, 1, -1})),
                p + ".padding_rows");
        return op(ONNXOperators.ADD, List.of(padded, causal), out);
    }

    /** The length of axis 1 of {@code x}, as an int64 scalar (Range takes scalars). */
    private ONNXRef<?> length(String name, ONNXRef<?> x) {
        ONNXContext ctx = nodes.context();
        ONNXRef<?> dims = op(OnnxOps.SLICE, List.of(op(OnnxOps.SHAPE, List.of(x), name + "_shape"),
                ctx.array(name + "_start", new long[]{1}), ctx.array(name + "_end", new long[]{2})), name + "_dim");
        return op(OnnxOps.SQUEEZE, List.of(dims), name);
    }

    private ONNXRef<?> op(org.tribuo.util.onnx.ONNXOperator operator, List<ONNXRef<?>> args, String out) {
        return nodes.op(operator, args, out, Map.of());
    }
}

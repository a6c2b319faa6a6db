package dev.inferbench.model;

import ai.onnx.proto.OnnxMl.TensorProto.DataType;
import dev.inferbench.model.Graph.Node;
import org.tribuo.util.onnx.ONNXContext;
import org.tribuo.util.onnx.ONNXOperator;
import org.tribuo.util.onnx.ONNXOperators;
import org.tribuo.util.onnx.ONNXRef;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.inferbench.model.Graph.attrs;

/**
 * Renders one {@link Graph} node as ONNX operators. Graph shapes and axes are per sample; ONNX's carry the batch
 * first, so every axis moves by one here. {@code args} are the node's value inputs then its parameters.
 * Each ONNX node is named after the graph node's path: the operator that makes its output gets the path itself
 * ({@code encoder.layer.0.intermediate.gelu}), the operators before it the path and a part
 * ({@code encoder.layer.0.intermediate.gelu:erf}), so the module stays what comes before the last dot.
 */
final class OnnxNodes {
    private final ONNXContext ctx;
    private final DecoderNodes decoder = new DecoderNodes(this);
    /** ONNX node names by the node's (unique) output name; Tribuo names nodes by operator type only. */
    private final Map<String, String> names = new HashMap<>();
    private Node current;

    OnnxNodes(ONNXContext ctx) {
        this.ctx = ctx;
    }

    /** The name for the ONNX node writing {@code output}, or null for a node these renders did not make. */
    String nodeName(String output) {
        return names.get(output);
    }

    ONNXRef<?> render(Node n, List<ONNXRef<?>> values, List<ONNXRef<?>> params) {
        current = n;
        String out = n.name() + ".out";
        List<ONNXRef<?>> args = new ArrayList<>(values);
        args.addAll(params);
        Map<String, Object> a = n.attrs();
        return switch (n.op()) {
            case CONV -> op(OnnxOps.CONV, args, out, convAttrs(n));
            case MAX_POOL -> op(OnnxOps.MAX_POOL, args, out, window(n));
            case BATCH_NORM -> op(OnnxOps.BATCH_NORMALIZATION, args, out, attrs("epsilon", 1e-5f));
            case RELU -> op(OnnxOps.RELU, args, out, Map.of());
            case CLIP -> op(OnnxOps.CLIP, List.of(args.get(0), ctx.constant(n.name() + ".min", (Float) a.get("min")),
                    ctx.constant(n.name() + ".max", (Float) a.get("max"))), out, Map.of());
            case ADD -> op(ONNXOperators.ADD, args, out, Map.of());
            case MUL -> op(ONNXOperators.MUL, args, out, Map.of());
            case SCALE -> op(ONNXOperators.MUL, List.of(args.get(0), ctx.constant(n.name() + ".factor",
                    (Float) a.get("factor"))), out, Map.of());
            case GLOBAL_AVG_POOL -> op(OnnxOps.GLOBAL_AVERAGE_POOL, args, out, Map.of());
            case FLATTEN -> op(OnnxOps.FLATTEN, args, out, attrs("axis", 1));
            case LINEAR -> op(ONNXOperators.GEMM, args, out, attrs("transB", 1));
            case SOFTMAX -> op(ONNXOperators.SOFTMAX, args, out, attrs("axis", Graph.batchedAxis((Integer) a.get("axis"))));
            case MATMUL -> op(OnnxOps.MAT_MUL, args, out, Map.of());
            case DENSE -> op(ONNXOperators.ADD, List.of(op(OnnxOps.MAT_MUL, List.of(args.get(0), args.get(1)),
                    n.name() + ".matmul", Map.of()), args.get(2)), out, Map.of());
            case LAYER_NORM -> op(OnnxOps.LAYER_NORMALIZATION, args, out, layerNormAttrs(n));
            case GELU -> gelu(n, args.get(0), out);
            case TANH -> op(OnnxOps.TANH, args, out, Map.of());
            case RESHAPE -> op(OnnxOps.RESHAPE, List.of(args.get(0),
                    ctx.array(n.name() + ".shape", withBatch((long[]) a.get("shape")))), out, Map.of());
            case TRANSPOSE -> op(OnnxOps.TRANSPOSE, args, out, attrs("perm", Graph.batchedPerm((int[]) a.get("perm"))));
            case EMBEDDING -> op(ONNXOperators.GATHER, List.of(params.get(0), values.get(0)), out, attrs("axis", 0));
            case POSITIONS -> positions(n, values.get(0), params.get(0), out);
            case ADD_ROW -> op(ONNXOperators.ADD, List.of(values.get(0), op(ONNXOperators.GATHER, List.of(params.get(0),
                    ctx.constant(n.name() + ".row", (long) (Integer) a.get("row"))), n.name() + ".gather",
                    attrs("axis", 0))), out, Map.of());
            case CLASS_TOKEN -> classToken(n, values.get(0), params.get(0), out);
            case SELECT -> op(ONNXOperators.GATHER, List.of(values.get(0),
                    ctx.constant(n.name() + ".index", (long) (Integer) a.get("index"))), out,
                    attrs("axis", Graph.batchedAxis((Integer) a.get("axis"))));
            case MASK_BIAS -> maskBias(n, values.get(0), out);
            case RMS_NORM, SILU, PROJECT, CONCAT, ROPE_ANGLES, ROTARY, CAUSAL_BIAS -> decoder.render(n, values, params, out);
        };
    }

    /** 0.5 * x * (1 + erf(x / sqrt 2)): the form ONNX Runtime's optimizer fuses into one Gelu kernel. */
    private ONNXRef<?> gelu(Node n, ONNXRef<?> x, String out) {
        String p = n.name();
        ONNXRef<?> erf = op(OnnxOps.ERF, List.of(op(ONNXOperators.DIV, List.of(x,
                ctx.constant(p + ".sqrt2", (float) Math.sqrt(2))), p + ".div", Map.of())), p + ".erf", Map.of());
        ONNXRef<?> onePlus = op(ONNXOperators.ADD, List.of(erf, ctx.constant(p + ".one", 1f)), p + ".add", Map.of());
        ONNXRef<?> times = op(ONNXOperators.MUL, List.of(x, onePlus), p + ".mul", Map.of());
        return op(ONNXOperators.MUL, List.of(times, ctx.constant(p + ".half", 0.5f)), out, Map.of());
    }

    /** x + table[0 : seq], seq read from x's shape at run time. */
    private ONNXRef<?> positions(Node n, ONNXRef<?> x, ONNXRef<?> table, String out) {
        String p = n.name();
        ONNXRef<?> seq = op(OnnxOps.SLICE, List.of(op(OnnxOps.SHAPE, List.of(x), p + ".shape", Map.of()),
                ctx.array(p + ".seq_start", new long[]{1}), ctx.array(p + ".seq_end", new long[]{2})),
                p + ".seq", Map.of());
        ONNXRef<?> rows = op(OnnxOps.SLICE, List.of(table, ctx.array(p + ".zero", new long[]{0}), seq),
                p + ".rows", Map.of());
        return op(ONNXOperators.ADD, List.of(x, rows), out, Map.of());
    }

    /** concat([expand(token, [batch, 1, 1]), x], axis 1). */
    private ONNXRef<?> classToken(Node n, ONNXRef<?> x, ONNXRef<?> token, String out) {
        String p = n.name();
        ONNXRef<?> batch = op(OnnxOps.SLICE, List.of(op(OnnxOps.SHAPE, List.of(x), p + ".shape", Map.of()),
                ctx.array(p + ".batch_start", new long[]{0}), ctx.array(p + ".batch_end", new long[]{1})),
                p + ".batch", Map.of());
        ONNXRef<?> shape = op(ONNXOperators.CONCAT, List.of(batch, ctx.array(p + ".ones", new long[]{1, 1})),
                p + ".expand_shape", attrs("axis", 0));
        ONNXRef<?> tokens = op(OnnxOps.EXPAND, List.of(token, shape), p + ".expand", Map.of());
        return op(ONNXOperators.CONCAT, List.of(tokens, x), out, attrs("axis", 1));
    }

    /** (1 - float(mask)) * MASKED, reshaped to [batch, 1, 1, seq] to broadcast over heads and query positions. */
    private ONNXRef<?> maskBias(Node n, ONNXRef<?> mask, String out) {
        String p = n.name();
        ONNXRef<?> f = op(ONNXOperators.CAST, List.of(mask), p + ".cast", attrs("to", DataType.FLOAT.getNumber()));
        ONNXRef<?> inverted = op(ONNXOperators.SUB, List.of(ctx.constant(p + ".one", 1f), f), p + ".invert", Map.of());
        ONNXRef<?> bias = op(ONNXOperators.MUL, List.of(inverted, ctx.constant(p + ".masked",
                (Float) n.attrs().get("masked"))), p + ".scale", Map.of());
        return op(OnnxOps.RESHAPE, List.of(bias, ctx.array(p + ".shape", new long[]{0, 1, 1, -1})), out, Map.of());
    }

    ONNXContext context() {
        return ctx;
    }

    ONNXRef<?> op(ONNXOperator operator, List<ONNXRef<?>> args, String out, Map<String, Object> attrs) {
        ONNXRef<?> node = ctx.operation(operator, args, out, attrs);
        String prefix = current.name() + ".";
        String part = out.equals(prefix + "out") ? "" : ":" + (out.startsWith(prefix) ? out.substring(prefix.length()) : out);
        names.put(node.getReference(), current.path() + part);
        return node;
    }

    private static Map<String, Object> convAttrs(Node n) {
        Map<String, Object> a = window(n);
        a.put("group", n.attrs().getOrDefault("group", 1));
        return a;
    }

    private static Map<String, Object> window(Node n) {
        int k = (Integer) n.attrs().get("kernel");
        int s = (Integer) n.attrs().get("stride");
        int p = (Integer) n.attrs().get("pad");
        return attrs("kernel_shape", new int[]{k, k}, "strides", new int[]{s, s}, "pads", new int[]{p, p, p, p});
    }

    private static Map<String, Object> layerNormAttrs(Node n) {
        return attrs("axis", -1, "epsilon", n.attrs().get("epsilon"));
    }

    /** A per-sample target shape for Reshape: 0 keeps the batch, the dynamic dimension becomes -1 (inferred). */
    private static long[] withBatch(long[] shape) {
        long[] out = new long[shape.length + 1];
        for (int i = 0; i < shape.length; i++) {
            out[i + 1] = shape[i] < 0 ? -1 : shape[i];
        }
        return out;
    }
}

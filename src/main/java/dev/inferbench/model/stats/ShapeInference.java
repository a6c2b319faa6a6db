package dev.inferbench.model.stats;

import dev.inferbench.model.Broadcast;

import java.nio.LongBuffer;
import java.nio.ByteOrder;
import static dev.inferbench.model.stats.ShapeRules.attrInt;
import static dev.inferbench.model.stats.ShapeRules.attrInts;
import static dev.inferbench.model.stats.ShapeRules.clamp;
import static dev.inferbench.model.stats.ShapeRules.flatten;
import static dev.inferbench.model.stats.ShapeRules.gemm;
import static dev.inferbench.model.stats.ShapeRules.globalPool;
import static dev.inferbench.model.stats.ShapeRules.matmul;
import static dev.inferbench.model.stats.ShapeRules.norm;
import static dev.inferbench.model.stats.ShapeRules.reshape;
import static dev.inferbench.model.stats.ShapeRules.squeeze;
import static dev.inferbench.model.stats.ShapeRules.transpose;
import static dev.inferbench.model.stats.ShapeRules.window;

import ai.onnx.proto.OnnxMl;
import ai.onnx.proto.OnnxMl.NodeProto;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Concrete shapes of the values of an ONNX graph, from its input shapes: enough of ONNX's shape inference for the
 * operators of CNNs and transformers (including the Shape/Slice/Concat arithmetic exporters emit for dynamic
 * sizes, whose small integer values are folded along). A value whose operator is not covered stays unknown, and
 * so does whatever depends on it; {@link MacCounter} says when that cost it a figure.
 */
final class ShapeInference {
    private static final Set<String> SAME_SHAPE = Set.of("Relu", "Clip", "Sigmoid", "Tanh", "Erf", "Gelu", "Softmax",
            "LogSoftmax", "LayerNormalization", "BatchNormalization", "InstanceNormalization", "Identity", "Dropout",
            "Neg", "Sqrt", "Exp", "Log", "Abs", "Reciprocal", "HardSigmoid", "HardSwish", "LeakyRelu", "Elu", "Selu",
            "Not", "Floor", "Ceil", "Round", "Softplus", "Mish", "Sign", "Cos", "Sin", "QuantizeLinear",
            "DequantizeLinear", "SimplifiedLayerNormalization", "FastGelu", "BiasGelu");
    private static final Set<String> BROADCAST = Set.of("Add", "Sub", "Mul", "Div", "Pow", "Where", "Equal",
            "Greater", "Less", "GreaterOrEqual", "LessOrEqual", "And", "Or", "Xor", "Max", "Min", "Sum", "Mod", "PRelu");

    final Map<String, long[]> shapes = new HashMap<>();
    /** Values of small integer tensors (shapes, axes, indices). */
    final Map<String, long[]> ints = new HashMap<>();

    ShapeInference(OnnxSummary model, Map<String, long[]> inputShapes) {
        model.initializers().values().forEach(i -> {
            shapes.put(i.name(), i.dims());
            if (i.ints() != null) {
                ints.put(i.name(), i.ints());
            }
        });
        shapes.putAll(inputShapes);
        for (NodeProto n : model.nodes()) {
            try {
                infer(n);
            } catch (RuntimeException unsupported) {
                // a malformed or unusual node: its outputs stay unknown
            }
        }
    }

    long[] shape(String name) {
        return name.isEmpty() ? null : shapes.get(name);
    }

    private void infer(NodeProto n) {
        String op = n.getOpType();
        long[] x = n.getInputCount() > 0 ? shape(n.getInput(0)) : null;
        if (op.equals("Constant")) {
            constant(n);
            return;
        }
        if (SAME_SHAPE.contains(op) || op.equals("Cast")) {
            if (x != null) {
                set(n, x);
                if (op.equals("Cast") || op.equals("Identity")) {
                    copyInts(n.getInput(0), n.getOutput(0));
                }
            }
            return;
        }
        if (BROADCAST.contains(op)) {
            long[] out = new long[0];
            for (String in : n.getInputList()) {
                long[] s = shape(in);
                if (s == null) {
                    return;
                }
                out = Broadcast.shape(out, s);
            }
            set(n, out);
            foldArithmetic(n, op);
            return;
        }
        long[] out = switch (op) {
            case "Conv", "MaxPool", "AveragePool", "ConvInteger", "QLinearConv" -> window(n, x, op);
            case "GlobalAveragePool", "GlobalMaxPool" -> globalPool(x);
            case "Gemm" -> gemm(n, x, shape(n.getInput(1)));
            case "MatMul", "MatMulInteger" -> matmul(x, shape(n.getInput(1)));
            case "Flatten" -> flatten(x, (int) attrInt(n, "axis", 1));
            case "Reshape" -> reshape(x, ints.get(n.getInput(1)));
            case "Transpose" -> transpose(x, attrInts(n, "perm"));
            case "Shape" -> shapeOf(n, x);
            case "Gather" -> gather(n, x, shape(n.getInput(1)));
            case "Slice" -> slice(n, x);
            case "Concat" -> concat(n);
            case "Expand" -> x == null || !ints.containsKey(n.getInput(1)) ? null : Broadcast.shape(x, ints.get(n.getInput(1)));
            case "Unsqueeze" -> unsqueeze(x, axes(n));
            case "Squeeze" -> squeeze(x, axes(n));
            case "ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin" -> reduce(n, x);
            case "ConstantOfShape" -> ints.get(n.getInput(0));
            default -> null;
        };
        if (out != null) {
            set(n, out);
            if (op.contains("Conv")) {
                convChannels(n);
            }
        }
    }

    private void set(NodeProto n, long[] shape) {
        shapes.put(n.getOutput(0), shape);
    }

    private void copyInts(String from, String to) {
        if (ints.containsKey(from)) {
            ints.put(to, ints.get(from));
        }
    }

    private void constant(NodeProto n) {
        for (OnnxMl.AttributeProto a : n.getAttributeList()) {
            if (a.getName().equals("value")) {
                OnnxMl.TensorProto t = a.getT();
                shapes.put(n.getOutput(0), t.getDimsList().stream().mapToLong(Long::longValue).toArray());
                if (t.getInt64DataCount() > 0) {
                    ints.put(n.getOutput(0), t.getInt64DataList().stream().mapToLong(Long::longValue).toArray());
                } else if (t.getDataType() == OnnxMl.TensorProto.DataType.INT64_VALUE && !t.getRawData().isEmpty()) {
                    LongBuffer b = t.getRawData().asReadOnlyByteBuffer()
                            .order(ByteOrder.LITTLE_ENDIAN).asLongBuffer();
                    long[] v = new long[b.remaining()];
                    b.get(v);
                    ints.put(n.getOutput(0), v);
                }
            } else if (a.getName().equals("value_ints")) {
                shapes.put(n.getOutput(0), new long[]{a.getIntsCount()});
                ints.put(n.getOutput(0), a.getIntsList().stream().mapToLong(Long::longValue).toArray());
            } else if (a.getName().equals("value_int")) {
                shapes.put(n.getOutput(0), new long[0]);
                ints.put(n.getOutput(0), new long[]{a.getI()});
            }
        }
    }

    /** Element-wise integer arithmetic on folded shape values (exporters compute sizes this way). */
    private void foldArithmetic(NodeProto n, String op) {
        if (n.getInputCount() != 2 || !ints.containsKey(n.getInput(0)) || !ints.containsKey(n.getInput(1))) {
            return;
        }
        long[] a = ints.get(n.getInput(0));
        long[] b = ints.get(n.getInput(1));
        int len = Math.max(a.length, b.length);
        long[] out = new long[len];
        for (int i = 0; i < len; i++) {
            long u = a[a.length == 1 ? 0 : i];
            long v = b[b.length == 1 ? 0 : i];
            switch (op) {
                case "Add" -> out[i] = u + v;
                case "Sub" -> out[i] = u - v;
                case "Mul" -> out[i] = u * v;
                case "Div" -> out[i] = v == 0 ? 0 : u / v;
                default -> {
                    return;
                }
            }
        }
        ints.put(n.getOutput(0), out);
    }

    private void convChannels(NodeProto n) {
        long[] out = shapes.get(n.getOutput(0));
        long[] w = shape(n.getInput(n.getOpType().equals("QLinearConv") ? 3 : 1));
        if (out != null && out[1] == -1) {
            if (w == null) {
                shapes.remove(n.getOutput(0));
            } else {
                out[1] = w[0];
            }
        }
    }







    private long[] shapeOf(NodeProto n, long[] x) {
        if (x == null) {
            return null;
        }
        int start = (int) norm(attrInt(n, "start", 0), x.length);
        int end = (int) norm(attrInt(n, "end", x.length), x.length);
        long[] v = Arrays.copyOfRange(x, start, Math.max(start, end));
        ints.put(n.getOutput(0), v);
        return new long[]{v.length};
    }

    private long[] gather(NodeProto n, long[] x, long[] indices) {
        if (x == null || indices == null) {
            return null;
        }
        int axis = (int) norm(attrInt(n, "axis", 0), x.length);
        long[] out = new long[x.length - 1 + indices.length];
        System.arraycopy(x, 0, out, 0, axis);
        System.arraycopy(indices, 0, out, axis, indices.length);
        System.arraycopy(x, axis + 1, out, axis + indices.length, x.length - axis - 1);
        long[] data = ints.get(n.getInput(0));
        long[] idx = ints.get(n.getInput(1));
        if (data != null && idx != null && x.length == 1) {
            long[] v = new long[idx.length];
            for (int i = 0; i < idx.length; i++) {
                v[i] = data[(int) norm(idx[i], data.length)];
            }
            ints.put(n.getOutput(0), v);
        }
        return out;
    }

    private long[] slice(NodeProto n, long[] x) {
        long[] starts = input(n, 1);
        long[] ends = input(n, 2);
        if (x == null || starts == null || ends == null) {
            return null;
        }
        long[] axes = n.getInputCount() > 3 && !n.getInput(3).isEmpty() ? input(n, 3) : null;
        long[] steps = n.getInputCount() > 4 && !n.getInput(4).isEmpty() ? input(n, 4) : null;
        long[] out = x.clone();
        long[] begin = new long[x.length];
        for (int i = 0; i < starts.length; i++) {
            int axis = (int) norm(axes == null ? i : axes[i], x.length);
            long step = steps == null ? 1 : steps[i];
            long s = clamp(norm(starts[i], x[axis]), x[axis]);
            long e = clamp(norm(ends[i], x[axis]), x[axis]);
            out[axis] = step > 0 ? Math.max(0, (e - s + step - 1) / step) : Math.max(0, (s - e - step - 1) / -step);
            begin[axis] = s;
        }
        long[] data = ints.get(n.getInput(0));
        if (data != null && x.length == 1) {
            ints.put(n.getOutput(0), Arrays.copyOfRange(data, (int) begin[0], (int) (begin[0] + out[0])));
        }
        return out;
    }

    private long[] concat(NodeProto n) {
        long[] first = shape(n.getInput(0));
        if (first == null) {
            return null;
        }
        int axis = (int) norm(attrInt(n, "axis", 0), first.length);
        long[] out = first.clone();
        out[axis] = 0;
        long[] values = new long[0];
        boolean folded = true;
        for (String in : n.getInputList()) {
            long[] s = shape(in);
            if (s == null) {
                return null;
            }
            out[axis] += s[axis];
            long[] v = ints.get(in);
            folded &= v != null;
            if (v != null) {
                values = ShapeRules.concat(values, v);
            }
        }
        if (folded) {
            ints.put(n.getOutput(0), values);
        }
        return out;
    }

    private long[] axes(NodeProto n) {
        long[] attr = attrInts(n, "axes");
        return attr != null ? attr : n.getInputCount() > 1 ? ints.get(n.getInput(1)) : null;
    }

    private long[] unsqueeze(long[] x, long[] axes) {
        if (x == null || axes == null) {
            return null;
        }
        int rank = x.length + axes.length;
        long[] out = new long[rank];
        boolean[] added = new boolean[rank];
        for (long a : axes) {
            added[(int) norm(a, rank)] = true;
        }
        for (int i = 0, j = 0; i < rank; i++) {
            out[i] = added[i] ? 1 : x[j++];
        }
        return out;
    }


    private long[] reduce(NodeProto n, long[] x) {
        if (x == null) {
            return null;
        }
        long[] axes = axes(n);
        boolean keep = attrInt(n, "keepdims", 1) == 1;
        long[] out = x.clone();
        boolean[] reduced = new boolean[x.length];
        for (int i = 0; i < x.length; i++) {
            reduced[i] = axes == null;
        }
        if (axes != null) {
            for (long a : axes) {
                reduced[(int) norm(a, x.length)] = true;
            }
        }
        for (int i = 0; i < x.length; i++) {
            if (reduced[i]) {
                out[i] = keep ? 1 : -1;
            }
        }
        return keep ? out : Arrays.stream(out).filter(d -> d != -1).toArray();
    }

    private long[] input(NodeProto n, int i) {
        return n.getInputCount() > i ? ints.get(n.getInput(i)) : null;
    }
}

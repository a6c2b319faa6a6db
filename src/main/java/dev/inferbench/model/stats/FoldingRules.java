package dev.inferbench.model.stats;

import ai.onnx.proto.OnnxMl.NodeProto;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static dev.inferbench.model.stats.ShapeRules.attrInt;
import static dev.inferbench.model.stats.ShapeRules.attrInts;
import static dev.inferbench.model.stats.ShapeRules.clamp;
import static dev.inferbench.model.stats.ShapeRules.norm;

/**
 * The shape rules that read or fold the values of small integer tensors (the Shape/Gather/Slice/Concat arithmetic
 * exporters emit for dynamic sizes, and axes given as inputs); {@link ShapeRules} has those that need no values.
 */
final class FoldingRules {
    private final ShapeInference graph;
    private final Map<String, long[]> ints;

    FoldingRules(ShapeInference graph) {
        this.graph = graph;
        this.ints = graph.ints;
    }

    /** Element-wise integer arithmetic on folded shape values (exporters compute sizes this way). */
    void arithmetic(NodeProto n, String op) {
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

    long[] shapeOf(NodeProto n, long[] x) {
        if (x == null) {
            return null;
        }
        int start = (int) norm(attrInt(n, "start", 0), x.length);
        int end = (int) norm(attrInt(n, "end", x.length), x.length);
        long[] v = Arrays.copyOfRange(x, start, Math.max(start, end));
        ints.put(n.getOutput(0), v);
        return new long[]{v.length};
    }

    long[] gather(NodeProto n, long[] x, long[] indices) {
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

    long[] slice(NodeProto n, long[] x) {
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

    /** Concat of {@code inputs} (all of Concat's; every third of QLinearConcat's, after its output scale). */
    long[] concat(NodeProto n, List<String> inputs) {
        long[] first = inputs.isEmpty() ? null : graph.shape(inputs.get(0));
        if (first == null) {
            return null;
        }
        int axis = (int) norm(attrInt(n, "axis", 0), first.length);
        long[] out = first.clone();
        out[axis] = 0;
        long[] values = new long[0];
        boolean folded = true;
        for (String in : inputs) {
            long[] s = graph.shape(in);
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

    long[] axes(NodeProto n) {
        long[] attr = attrInts(n, "axes");
        return attr != null ? attr : n.getInputCount() > 1 ? ints.get(n.getInput(1)) : null;
    }

    long[] unsqueeze(long[] x, long[] axes) {
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

    long[] reduce(NodeProto n, long[] x) {
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

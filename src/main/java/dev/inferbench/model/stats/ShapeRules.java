package dev.inferbench.model.stats;

import dev.inferbench.model.Broadcast;

import java.util.stream.IntStream;
import java.util.Optional;
import ai.onnx.proto.OnnxMl;
import ai.onnx.proto.OnnxMl.NodeProto;

import java.util.Arrays;
import java.util.List;

/** The shape rules of ONNX operators that need no folded values, and attribute access; for {@link ShapeInference}. */
final class ShapeRules {
    private ShapeRules() {
    }

    /** Conv and pooling outputs; {@code weight} is W's shape (null for pooling), read when kernel_shape is omitted. */
    static long[] window(NodeProto n, long[] x, String op, long[] weight) {
        if (x == null || x.length < 3) {
            return null;
        }
        int spatial = x.length - 2;
        long[] kernel = attrInts(n, "kernel_shape");
        if (kernel == null && weight != null && weight.length == x.length) {
            kernel = Arrays.copyOfRange(weight, 2, weight.length);
        }
        if (kernel == null) {
            return null;
        }
        long[] strides = orOnes(attrInts(n, "strides"), spatial);
        long[] dilations = orOnes(attrInts(n, "dilations"), spatial);
        long[] pads = attrInts(n, "pads");
        String autoPad = attrString(n, "auto_pad");
        boolean ceil = attrInt(n, "ceil_mode", 0) == 1;
        long[] out = x.clone();
        if (op.contains("Conv")) {
            out[1] = -1; // filled by the caller from W
        }
        for (int i = 0; i < spatial; i++) {
            long in = x[i + 2];
            if (autoPad.startsWith("SAME")) {
                out[i + 2] = (in + strides[i] - 1) / strides[i];
                continue;
            }
            long pad = pads == null || autoPad.equals("VALID") ? 0 : pads[i] + pads[i + spatial];
            long effective = dilations[i] * (kernel[i] - 1) + 1;
            long span = in + pad - effective;
            out[i + 2] = (ceil ? (span + strides[i] - 1) / strides[i] : span / strides[i]) + 1;
        }
        return out;
    }

    static long[] globalPool(long[] x) {
        if (x == null) {
            return null;
        }
        long[] out = x.clone();
        for (int i = 2; i < out.length; i++) {
            out[i] = 1;
        }
        return out;
    }

    static long[] gemm(NodeProto n, long[] a, long[] b) {
        if (a == null || b == null) {
            return null;
        }
        long m = attrInt(n, "transA", 0) == 1 ? a[1] : a[0];
        long cols = attrInt(n, "transB", 0) == 1 ? b[0] : b[1];
        return new long[]{m, cols};
    }

    static long[] matmul(long[] a, long[] b) {
        if (a == null || b == null) {
            return null;
        }
        long[] a2 = a.length == 1 ? new long[]{1, a[0]} : a;
        long[] b2 = b.length == 1 ? new long[]{b[0], 1} : b;
        long[] lead = Broadcast.shape(Arrays.copyOf(a2, a2.length - 2), Arrays.copyOf(b2, b2.length - 2));
        long[] out = Arrays.copyOf(lead, lead.length + 2);
        out[lead.length] = a2[a2.length - 2];
        out[lead.length + 1] = b2[b2.length - 1];
        return out;
    }

    static long[] flatten(long[] x, int axis) {
        if (x == null) {
            return null;
        }
        int ax = axis < 0 ? axis + x.length : axis;
        return new long[]{product(x, 0, ax), product(x, ax, x.length)};
    }

    static long[] reshape(long[] x, long[] target) {
        if (x == null || target == null) {
            return null;
        }
        long[] out = target.clone();
        int infer = -1;
        long known = 1;
        for (int i = 0; i < out.length; i++) {
            if (out[i] == 0) {
                out[i] = x[i];
            }
            if (out[i] == -1) {
                infer = i;
            } else {
                known *= out[i];
            }
        }
        if (infer >= 0) {
            out[infer] = known == 0 ? 0 : product(x, 0, x.length) / known;
        }
        return out;
    }

    static long[] transpose(long[] x, long[] perm) {
        if (x == null) {
            return null;
        }
        long[] out = new long[x.length];
        for (int i = 0; i < x.length; i++) {
            out[i] = x[perm == null ? x.length - 1 - i : (int) perm[i]];
        }
        return out;
    }

    static long[] squeeze(long[] x, long[] axes) {
        if (x == null) {
            return null;
        }
        boolean[] drop = new boolean[x.length];
        for (int i = 0; i < x.length; i++) {
            drop[i] = axes == null && x[i] == 1;
        }
        if (axes != null) {
            for (long a : axes) {
                drop[(int) norm(a, x.length)] = true;
            }
        }
        return IntStream.range(0, x.length).filter(i -> !drop[i]).mapToLong(i -> x[i]).toArray();
    }

    static long product(long[] x, int from, int to) {
        long p = 1;
        for (int i = from; i < to; i++) {
            p *= x[i];
        }
        return p;
    }

    static long norm(long axis, long size) {
        return axis < 0 ? axis + size : axis;
    }

    static long clamp(long v, long size) {
        return Math.max(0, Math.min(v, size));
    }

    static long[] orOnes(long[] v, int n) {
        if (v != null) {
            return v;
        }
        long[] ones = new long[n];
        Arrays.fill(ones, 1);
        return ones;
    }

    static long[] concat(long[] a, long[] b) {
        long[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    static long attrInt(NodeProto n, String name, long fallback) {
        return attribute(n, name).map(OnnxMl.AttributeProto::getI).orElse(fallback);
    }

    static long[] attrInts(NodeProto n, String name) {
        return attribute(n, name).map(a -> a.getIntsList().stream().mapToLong(Long::longValue).toArray()).orElse(null);
    }

    static String attrString(NodeProto n, String name) {
        return attribute(n, name).map(a -> a.getS().toStringUtf8()).orElse("NOTSET");
    }

    static Optional<OnnxMl.AttributeProto> attribute(NodeProto n, String name) {
        List<OnnxMl.AttributeProto> attrs = n.getAttributeList();
        return attrs.stream().filter(a -> a.getName().equals(name)).findFirst();
    }
}

package dev.inferbench.variant;

import ai.onnx.proto.OnnxMl.AttributeProto;
import ai.onnx.proto.OnnxMl.GraphProto;
import ai.onnx.proto.OnnxMl.ModelProto;
import ai.onnx.proto.OnnxMl.NodeProto;
import ai.onnx.proto.OnnxMl.OperatorSetIdProto;
import ai.onnx.proto.OnnxMl.TensorProto;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The int4 weight-only variant of a decoder, as onnxruntime-genai's model builder and ONNX Runtime's
 * {@code MatMulNBitsQuantizer} write one: every MatMul whose right-hand side is a float32 weight (an initializer
 * {@code [K, N]}, or a Transpose of one, as a tied output head reads the embedding table) becomes ONNX Runtime's
 * {@code com.microsoft.MatMulNBits} over that weight quantized to 4 bits in blocks of 32 along K ({@link Int4Weights},
 * symmetric: the builder's defaults), with {@code accuracy_level} unset (the activations stay float32). Everything
 * else is left as it is: the embedding table (a Gather; a tied head quantizes its own copy), the norms, the attention
 * over the cache, and the caches and logits, which stay float32. A MatMul whose K no block of 16 or 32 divides stays
 * float32.
 */
final class Int4Transform {
    static final String DOMAIN = "com.microsoft";
    static final String OP = "MatMulNBits";

    private Int4Transform() {
    }

    static ModelProto decoder(ModelProto source) {
        return apply(source, false);
    }

    /**
     * @param simulated the same weights dequantized back to float32 under plain MatMuls, for tests: what MatMulNBits
     *                  computes, with ONNX Runtime's ordinary float kernels
     */
    static ModelProto apply(ModelProto source, boolean simulated) {
        GraphProto g = source.getGraph();
        Map<String, TensorProto> initializers = new HashMap<>();
        g.getInitializerList().forEach(t -> initializers.put(t.getName(), t));
        Map<String, NodeProto> transposes = new HashMap<>(); // output -> a Transpose [1, 0] of a 2-D initializer
        for (NodeProto n : g.getNodeList()) {
            if (n.getOpType().equals("Transpose") && isMatrix(initializers.get(n.getInput(0))) && swapsAxes(n)) {
                transposes.put(n.getOutput(0), n);
            }
        }
        List<NodeProto> nodes = new ArrayList<>();
        List<TensorProto> added = new ArrayList<>();
        for (NodeProto n : g.getNodeList()) {
            Weight w = n.getOpType().equals("MatMul") && n.getDomain().isEmpty()
                    ? weight(n.getInput(1), initializers, transposes) : null;
            int block = w == null ? 0 : Int4Weights.blockFor(w.k);
            if (block == 0) {
                nodes.add(n);
                continue;
            }
            String name = n.getName().isEmpty() ? n.getOutput(0) : n.getName();
            Int4Weights q = Int4Weights.quantize(w.values, w.k, w.n, block, true);
            if (simulated) {
                nodes.add(n.toBuilder().setInput(1, name + ".weight_dequantized").build());
                added.add(TensorData.floatTensor(name + ".weight_dequantized", List.of((long) w.k, (long) w.n),
                        q.dequantize()));
            } else {
                nodes.add(node(name, n.getInput(0), n.getOutput(0), q));
                added.addAll(initializers(name, q));
            }
        }
        Set<String> read = new HashSet<>();
        nodes.forEach(n -> read.addAll(n.getInputList()));
        g.getOutputList().forEach(o -> read.add(o.getName()));
        // a Transpose only the replaced head read goes, and so do weights nothing reads any more
        List<NodeProto> kept = nodes.stream().filter(n -> !transposes.containsKey(n.getOutput(0))
                || read.contains(n.getOutput(0))).toList();
        Set<String> readByKept = new HashSet<>();
        kept.forEach(n -> readByKept.addAll(n.getInputList()));
        GraphProto.Builder out = g.toBuilder().clearNode().addAllNode(kept).clearInitializer();
        g.getInitializerList().stream().filter(t -> readByKept.contains(t.getName())).forEach(out::addInitializer);
        added.forEach(out::addInitializer);
        ModelProto.Builder model = source.toBuilder().setGraph(out);
        if (source.getOpsetImportList().stream().noneMatch(o -> o.getDomain().equals(DOMAIN))) {
            model.addOpsetImport(OperatorSetIdProto.newBuilder().setDomain(DOMAIN).setVersion(1));
        }
        return model.build();
    }

    /** The MatMulNBits node computing {@code a @ W} into {@code out}, reading {@link #initializers} of {@code name}. */
    static NodeProto node(String name, String a, String out, Int4Weights q) {
        NodeProto.Builder b = NodeProto.newBuilder().setOpType(OP).setDomain(DOMAIN).setName(name)
                .addInput(a).addInput(name + ".weight_Q4").addInput(name + ".weight_scales");
        if (q.zeroPoints() != null) {
            b.addInput(name + ".weight_zero_points");
        }
        return b.addOutput(out).addAttribute(attr("K", q.k())).addAttribute(attr("N", q.n()))
                .addAttribute(attr("bits", 4)).addAttribute(attr("block_size", q.block())).build();
    }

    /** B {@code [N, K / block, block / 2]} uint8, scales {@code [N, K / block]} float32, zero points if any. */
    static List<TensorProto> initializers(String name, Int4Weights q) {
        List<TensorProto> t = new ArrayList<>();
        long blocks = q.blocks();
        t.add(TensorData.int8Tensor(name + ".weight_Q4", List.of((long) q.n(), blocks, (long) q.block() / 2),
                q.packed(), TensorProto.DataType.UINT8.getNumber()));
        t.add(TensorData.floatTensor(name + ".weight_scales", List.of((long) q.n(), blocks), q.scales()));
        if (q.zeroPoints() != null) {
            t.add(TensorData.int8Tensor(name + ".weight_zero_points", List.of((long) q.n(), (blocks + 1) / 2),
                    q.zeroPoints(), TensorProto.DataType.UINT8.getNumber()));
        }
        return t;
    }

    /** A right-hand side's weights as {@code [K, N]}; null when it is no float32 weight. */
    private static Weight weight(String input, Map<String, TensorProto> initializers, Map<String, NodeProto> transposes) {
        TensorProto direct = initializers.get(input);
        if (isMatrix(direct)) {
            return new Weight((int) direct.getDims(0), (int) direct.getDims(1), TensorData.floats(direct));
        }
        NodeProto t = transposes.get(input);
        if (t == null) {
            return null;
        }
        TensorProto table = initializers.get(t.getInput(0));
        int rows = (int) table.getDims(0);
        int cols = (int) table.getDims(1);
        float[] v = TensorData.floats(table);
        float[] transposed = new float[v.length];
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                transposed[c * rows + r] = v[r * cols + c];
            }
        }
        return new Weight(cols, rows, transposed);
    }

    private static boolean isMatrix(TensorProto t) {
        return t != null && t.getDataType() == TensorData.FLOAT && t.getDimsCount() == 2;
    }

    private static boolean swapsAxes(NodeProto transpose) {
        return transpose.getAttributeList().stream().noneMatch(a -> a.getName().equals("perm"))
                || transpose.getAttributeList().stream().anyMatch(a -> a.getName().equals("perm")
                && a.getIntsList().equals(List.of(1L, 0L)));
    }

    private static AttributeProto attr(String name, long value) {
        return AttributeProto.newBuilder().setName(name).setType(AttributeProto.AttributeType.INT).setI(value).build();
    }

    private record Weight(int k, int n, float[] values) {
    }
}

package dev.inferbench.variant;

import ai.onnx.proto.OnnxMl.GraphProto;
import ai.onnx.proto.OnnxMl.ModelProto;
import ai.onnx.proto.OnnxMl.NodeProto;
import ai.onnx.proto.OnnxMl.TensorProto;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Static int8 quantization in the QDQ format: around every Conv, Gemm and MatMul, activations pass through a
 * QuantizeLinear/DequantizeLinear pair (uint8, asymmetric, range from calibration), weights are stored as int8
 * (symmetric, per tensor) behind a DequantizeLinear, and biases as int32 with scale = input scale x weight scale.
 * That is the pattern ONNX Runtime fuses into QLinearConv / QLinearMatMul; the model stays a standard ONNX file
 * that any engine can run, in float if it does not fuse.
 */
final class QdqTransform {
    static final Set<String> TARGETS = Set.of("Conv", "Gemm", "MatMul");
    private static final int UINT8 = TensorProto.DataType.UINT8.getNumber();
    private static final int INT8 = TensorProto.DataType.INT8.getNumber();

    private QdqTransform() {
    }

    /** The activations whose ranges {@link #apply} needs: inputs 0 and outputs of the quantized operators. */
    static List<String> activations(ModelProto model) {
        Set<String> inits = initializerNames(model.getGraph());
        Set<String> names = new LinkedHashSet<>();
        for (NodeProto n : model.getGraph().getNodeList()) {
            if (TARGETS.contains(n.getOpType()) && n.getInputCount() > 1 && inits.contains(n.getInput(1))) {
                names.add(n.getInput(0));
                names.add(n.getOutput(0));
            }
        }
        return List.copyOf(names);
    }

    /** @param ranges per activation name, {min, max} observed on calibration data */
    static ModelProto apply(ModelProto model, Map<String, float[]> ranges) {
        GraphProto g = model.getGraph();
        Map<String, TensorProto> inits = new HashMap<>();
        g.getInitializerList().forEach(t -> inits.put(t.getName(), t));
        GraphProto.Builder out = g.toBuilder().clearNode().clearValueInfo();
        Set<String> quantized = new LinkedHashSet<>();
        for (String a : activations(model)) {
            if (ranges.containsKey(a)) {
                quantized.add(a);
            }
        }
        List<NodeProto> nodes = new ArrayList<>();
        g.getInputList().forEach(in -> addQdq(in.getName(), quantized, ranges, out, nodes));
        Set<String> usedInits = new LinkedHashSet<>();
        for (NodeProto n : g.getNodeList()) {
            NodeProto.Builder b = n.toBuilder();
            for (int i = 0; i < b.getInputCount(); i++) {
                if (quantized.contains(b.getInput(i))) {
                    b.setInput(i, b.getInput(i) + ".dq");
                }
            }
            if (TARGETS.contains(n.getOpType()) && quantized.contains(n.getInput(0)) && inits.containsKey(n.getInput(1))) {
                float inScale = scaleAndZero(ranges.get(n.getInput(0)))[0];
                float wScale = quantizeWeight(n.getInput(1), inits.get(n.getInput(1)), out, nodes);
                b.setInput(1, n.getInput(1) + ".dq");
                usedInits.add(n.getInput(1));
                if (n.getInputCount() > 2 && inits.containsKey(n.getInput(2))) {
                    quantizeBias(n.getInput(2), inits.get(n.getInput(2)), inScale * wScale, out, nodes);
                    b.setInput(2, n.getInput(2) + ".dq");
                    usedInits.add(n.getInput(2));
                }
            }
            nodes.add(b.build());
            n.getOutputList().forEach(o -> addQdq(o, quantized, ranges, out, nodes));
        }
        Set<String> stillRead = new LinkedHashSet<>();
        nodes.forEach(n -> stillRead.addAll(n.getInputList()));
        List<TensorProto> kept = out.getInitializerList().stream()
                .filter(t -> !usedInits.contains(t.getName()) || stillRead.contains(t.getName())).toList();
        return model.toBuilder().setGraph(out.clearInitializer().addAllInitializer(kept).addAllNode(nodes)).build();
    }

    /** uint8 asymmetric: the range always contains 0 (so zero, and Relu's clamp, are exact). */
    static float[] scaleAndZero(float[] range) {
        float lo = Math.min(range[0], 0f);
        float hi = Math.max(range[1], 0f);
        float scale = hi > lo ? (hi - lo) / 255f : 1f;
        float zero = Math.max(0, Math.min(255, Math.round(-lo / scale)));
        return new float[]{scale, zero};
    }

    private static void addQdq(String tensor, Set<String> quantized, Map<String, float[]> ranges,
                               GraphProto.Builder out, List<NodeProto> nodes) {
        if (!quantized.contains(tensor)) {
            return;
        }
        float[] sz = scaleAndZero(ranges.get(tensor));
        String scale = tensor + ".scale";
        String zero = tensor + ".zero_point";
        out.addInitializer(TensorData.floatTensor(scale, List.of(), new float[]{sz[0]}));
        out.addInitializer(TensorData.int8Tensor(zero, List.of(), new byte[]{(byte) (int) sz[1]}, UINT8));
        nodes.add(node("QuantizeLinear", tensor + ".q", tensor, scale, zero));
        nodes.add(node("DequantizeLinear", tensor + ".dq", tensor + ".q", scale, zero));
    }

    /** int8 symmetric per tensor; returns the scale. */
    private static float quantizeWeight(String name, TensorProto t, GraphProto.Builder out, List<NodeProto> nodes) {
        float[] w = TensorData.floats(t);
        float max = 0;
        for (float v : w) {
            max = Math.max(max, Math.abs(v));
        }
        float scale = max > 0 ? max / 127f : 1f;
        byte[] q = new byte[w.length];
        for (int i = 0; i < w.length; i++) {
            q[i] = (byte) Math.max(-127, Math.min(127, Math.round(w[i] / scale)));
        }
        out.addInitializer(TensorData.int8Tensor(name + ".int8", t.getDimsList(), q, INT8));
        out.addInitializer(TensorData.floatTensor(name + ".scale", List.of(), new float[]{scale}));
        out.addInitializer(TensorData.int8Tensor(name + ".zero_point", List.of(), new byte[]{0}, INT8));
        nodes.add(node("DequantizeLinear", name + ".dq", name + ".int8", name + ".scale", name + ".zero_point"));
        return scale;
    }

    private static void quantizeBias(String name, TensorProto t, float scale, GraphProto.Builder out,
                                     List<NodeProto> nodes) {
        float[] b = TensorData.floats(t);
        int[] q = new int[b.length];
        for (int i = 0; i < b.length; i++) {
            q[i] = (int) Math.max(Integer.MIN_VALUE + 1L, Math.min(Integer.MAX_VALUE, Math.round((double) b[i] / scale)));
        }
        out.addInitializer(TensorData.int32Tensor(name + ".int32", t.getDimsList(), q));
        out.addInitializer(TensorData.floatTensor(name + ".scale", List.of(), new float[]{scale}));
        out.addInitializer(TensorData.int32Tensor(name + ".zero_point", List.of(), new int[]{0}));
        nodes.add(node("DequantizeLinear", name + ".dq", name + ".int32", name + ".scale", name + ".zero_point"));
    }

    private static Set<String> initializerNames(GraphProto g) {
        Set<String> names = new LinkedHashSet<>();
        g.getInitializerList().forEach(t -> names.add(t.getName()));
        return names;
    }

    private static NodeProto node(String op, String output, String... inputs) {
        NodeProto.Builder b = NodeProto.newBuilder().setOpType(op).setName(output).addOutput(output);
        for (String in : inputs) {
            b.addInput(in);
        }
        return b.build();
    }

}

package dev.inferbench.model.stats;

import ai.onnx.proto.OnnxMl.AttributeProto;
import ai.onnx.proto.OnnxMl.GraphProto;
import ai.onnx.proto.OnnxMl.ModelProto;
import ai.onnx.proto.OnnxMl.NodeProto;
import ai.onnx.proto.OnnxMl.TensorProto;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.inferbench.model.stats.ExportForms.FLOAT;
import static dev.inferbench.model.stats.ExportForms.node;
import static dev.inferbench.model.stats.ExportForms.tensor;

/**
 * Every Conv and MatMul with a stored weight rewritten onto ONNX's integer kernels, per tensor, as ONNX Runtime's
 * quantizers write them: {@link Form#INTEGER} is dynamic quantization (DynamicQuantizeLinear, ConvInteger or
 * MatMulInteger on int8 weights, the int32 sum rescaled in float, the float bias added), {@link Form#QLINEAR} the
 * operator format (QuantizeLinear, QLinearConv with an int32 bias or QLinearMatMul, DequantizeLinear). The
 * BatchNormalizations stay, so the stored tensors are the original's one for one.
 */
final class IntegerKernels {
    enum Form { INTEGER, QLINEAR }

    private static final int INT8 = TensorProto.DataType.INT8_VALUE;
    private static final int UINT8 = TensorProto.DataType.UINT8_VALUE;
    private static final int INT32 = TensorProto.DataType.INT32_VALUE;

    private IntegerKernels() {
    }

    static ModelProto apply(ModelProto model, Form form) {
        GraphProto g = model.getGraph();
        Map<String, TensorProto> inits = new LinkedHashMap<>();
        g.getInitializerList().forEach(t -> inits.put(t.getName(), t));
        List<TensorProto> added = new ArrayList<>();
        List<NodeProto> nodes = new ArrayList<>();
        for (NodeProto n : g.getNodeList()) {
            boolean target = (n.getOpType().equals("Conv") || n.getOpType().equals("MatMul"))
                    && inits.containsKey(n.getInput(1)) && inits.get(n.getInput(1)).getDataType() == FLOAT;
            if (!target) {
                nodes.add(n);
            } else if (form == Form.INTEGER) {
                integer(n, inits, added, nodes);
            } else {
                qlinear(n, inits, added, nodes);
            }
        }
        Set<String> read = new HashSet<>();
        nodes.forEach(n -> read.addAll(n.getInputList()));
        GraphProto.Builder out = g.toBuilder().clearNode().clearInitializer().clearValueInfo().addAllNode(nodes);
        inits.values().stream().filter(t -> read.contains(t.getName())).forEach(out::addInitializer);
        added.forEach(out::addInitializer);
        return model.toBuilder().setGraph(out).build();
    }

    private static void integer(NodeProto n, Map<String, TensorProto> inits, List<TensorProto> added,
                                List<NodeProto> nodes) {
        String p = n.getOutput(0);
        String w = weight(inits.get(n.getInput(1)), added);
        String kernel = n.getOpType().equals("Conv") ? "ConvInteger" : "MatMulInteger";
        boolean bias = n.getInputCount() > 2 && !n.getInput(2).isEmpty();
        nodes.add(node("DynamicQuantizeLinear", p + ".xq").addInput(n.getInput(0))
                .addOutput(p + ".xs").addOutput(p + ".xzp").build());
        nodes.add(node(kernel, p + ".acc").addInput(p + ".xq").addInput(w).addInput(p + ".xzp").addInput(w + ".zp")
                .addAllAttribute(n.getAttributeList()).build());
        nodes.add(node("Cast", p + ".accf").addInput(p + ".acc").addAttribute(AttributeProto.newBuilder()
                .setName("to").setType(AttributeProto.AttributeType.INT).setI(FLOAT)).build());
        nodes.add(node("Mul", p + ".scale").addInput(p + ".xs").addInput(w + ".scale").build());
        nodes.add(node("Mul", bias ? p + ".nobias" : p).addInput(p + ".accf").addInput(p + ".scale").build());
        if (bias) {
            TensorProto b = inits.get(n.getInput(2));
            added.add(b.toBuilder().setName(b.getName() + ".chw").addDims(1).addDims(1).build());
            nodes.add(node("Add", p).addInput(p + ".nobias").addInput(b.getName() + ".chw").build());
        }
    }

    private static void qlinear(NodeProto n, Map<String, TensorProto> inits, List<TensorProto> added,
                                List<NodeProto> nodes) {
        String p = n.getOutput(0);
        String w = weight(inits.get(n.getInput(1)), added);
        boolean conv = n.getOpType().equals("Conv");
        scaleAndZero(p + ".x", added);
        scaleAndZero(p + ".y", added);
        nodes.add(node("QuantizeLinear", p + ".xq").addInput(n.getInput(0)).addInput(p + ".x.scale")
                .addInput(p + ".x.zp").build());
        NodeProto.Builder k = node(conv ? "QLinearConv" : "QLinearMatMul", p + ".yq").addInput(p + ".xq")
                .addInput(p + ".x.scale").addInput(p + ".x.zp").addInput(w).addInput(w + ".scale").addInput(w + ".zp")
                .addInput(p + ".y.scale").addInput(p + ".y.zp").addAllAttribute(n.getAttributeList());
        if (conv && n.getInputCount() > 2 && !n.getInput(2).isEmpty()) {
            TensorProto b = inits.get(n.getInput(2));
            byte[] q = new byte[b.getDims(0) > 0 ? (int) b.getDims(0) * 4 : 0];
            added.add(tensor(b.getName() + ".int32", INT32, b.getDimsList(), q));
            k.addInput(b.getName() + ".int32");
        }
        nodes.add(k.build());
        nodes.add(node("DequantizeLinear", p).addInput(p + ".yq").addInput(p + ".y.scale").addInput(p + ".y.zp")
                .build());
    }

    /** int8, symmetric per tensor; returns the int8 tensor's name (its scale and zero point: name.scale, name.zp). */
    private static String weight(TensorProto t, List<TensorProto> added) {
        float[] w = floats(t);
        float max = 1e-8f;
        for (float v : w) {
            max = Math.max(max, Math.abs(v));
        }
        byte[] q = new byte[w.length];
        for (int i = 0; i < w.length; i++) {
            q[i] = (byte) Math.round(w[i] / max * 127);
        }
        String name = t.getName() + ".int8";
        added.add(tensor(name, INT8, t.getDimsList(), q));
        added.add(tensor(name + ".scale", FLOAT, List.of(), le(4).putFloat(max / 127).array()));
        added.add(tensor(name + ".zp", INT8, List.of(), new byte[]{0}));
        return name;
    }

    private static void scaleAndZero(String prefix, List<TensorProto> added) {
        added.add(tensor(prefix + ".scale", FLOAT, List.of(), le(4).putFloat(0.05f).array()));
        added.add(tensor(prefix + ".zp", UINT8, List.of(), new byte[]{(byte) 128}));
    }

    private static float[] floats(TensorProto t) {
        if (t.getFloatDataCount() > 0) {
            float[] v = new float[t.getFloatDataCount()];
            for (int i = 0; i < v.length; i++) {
                v[i] = t.getFloatData(i);
            }
            return v;
        }
        float[] v = new float[t.getRawData().size() / 4];
        t.getRawData().asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(v);
        return v;
    }

    private static ByteBuffer le(int bytes) {
        return ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }
}

package dev.inferbench.variant;

import ai.onnx.proto.OnnxMl.AttributeProto;
import ai.onnx.proto.OnnxMl.GraphProto;
import ai.onnx.proto.OnnxMl.ModelProto;
import ai.onnx.proto.OnnxMl.NodeProto;
import ai.onnx.proto.OnnxMl.TensorProto;
import ai.onnx.proto.OnnxMl.ValueInfoProto;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The float16 variant: every float32 initializer, constant and intermediate value becomes float16, and a Cast at the
 * graph boundary keeps inputs and outputs float32, so the same input batches and output checks serve every precision.
 * Engines without a float16 kernel for an operator (ONNX Runtime's CPU provider for most of them) insert casts
 * themselves; what that costs is part of what the variant measures.
 */
final class Fp16Transform {
    private static final String SUFFIX = ".fp16";

    private Fp16Transform() {
    }

    static ModelProto apply(ModelProto source) {
        GraphProto g = source.getGraph();
        GraphProto.Builder out = g.toBuilder().clearNode().clearInitializer().clearValueInfo();
        Map<String, String> renamed = new HashMap<>();
        List<NodeProto> nodes = new ArrayList<>();
        for (ValueInfoProto in : g.getInputList()) {
            if (isFloat(in)) {
                renamed.put(in.getName(), in.getName() + SUFFIX);
                nodes.add(cast(in.getName(), in.getName() + SUFFIX, TensorData.FLOAT16));
            }
        }
        Map<String, String> outputs = new HashMap<>();
        for (ValueInfoProto o : g.getOutputList()) {
            if (isFloat(o)) {
                outputs.put(o.getName(), o.getName() + SUFFIX);
            }
        }
        for (NodeProto n : g.getNodeList()) {
            NodeProto.Builder b = n.toBuilder();
            for (int i = 0; i < b.getInputCount(); i++) {
                b.setInput(i, renamed.getOrDefault(b.getInput(i), outputs.getOrDefault(b.getInput(i), b.getInput(i))));
            }
            for (int i = 0; i < b.getOutputCount(); i++) {
                b.setOutput(i, outputs.getOrDefault(b.getOutput(i), b.getOutput(i)));
            }
            for (int i = 0; i < b.getAttributeCount(); i++) {
                b.setAttribute(i, toHalf(n.getOpType(), b.getAttribute(i)));
            }
            nodes.add(b.build());
        }
        for (ValueInfoProto o : g.getOutputList()) {
            if (isFloat(o)) {
                nodes.add(cast(o.getName() + SUFFIX, o.getName(), TensorData.FLOAT));
            }
        }
        for (TensorProto t : g.getInitializerList()) {
            out.addInitializer(t.getDataType() == TensorData.FLOAT
                    ? TensorData.halfTensor(t.getName(), t.getDimsList(), TensorData.floats(t)) : t);
        }
        return source.toBuilder().setGraph(out.addAllNode(nodes)).build();
    }

    /** Constants and casts that make float32 values inside the graph make float16 ones instead. */
    private static AttributeProto toHalf(String op, AttributeProto a) {
        if (op.equals("Cast") && a.getName().equals("to") && a.getI() == TensorData.FLOAT) {
            return a.toBuilder().setI(TensorData.FLOAT16).build();
        }
        if (a.hasT() && a.getT().getDataType() == TensorData.FLOAT) {
            TensorProto t = a.getT();
            return a.toBuilder().setT(TensorData.halfTensor(t.getName(), t.getDimsList(), TensorData.floats(t))).build();
        }
        return a;
    }

    private static boolean isFloat(ValueInfoProto v) {
        return v.getType().hasTensorType() && v.getType().getTensorType().getElemType() == TensorData.FLOAT;
    }

    private static NodeProto cast(String from, String to, int type) {
        return NodeProto.newBuilder().setOpType("Cast").setName(to + ".cast").addInput(from).addOutput(to)
                .addAttribute(AttributeProto.newBuilder().setName("to").setType(AttributeProto.AttributeType.INT)
                        .setI(type)).build();
    }
}

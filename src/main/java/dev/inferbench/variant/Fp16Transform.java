package dev.inferbench.variant;

import ai.onnx.proto.OnnxMl.AttributeProto;
import ai.onnx.proto.OnnxMl.GraphProto;
import ai.onnx.proto.OnnxMl.ModelProto;
import ai.onnx.proto.OnnxMl.NodeProto;
import ai.onnx.proto.OnnxMl.TensorProto;
import ai.onnx.proto.OnnxMl.ValueInfoProto;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The float16 variant: every float32 initializer, constant and intermediate value becomes float16, and a Cast at the
 * graph boundary keeps inputs and outputs float32, so the same input batches and output checks serve every precision.
 * A decoder's variant ({@link #decoder}) instead has float16 caches and logits, as fp16 decoder exports do.
 * Engines without a float16 kernel for an operator (ONNX Runtime's CPU provider for most of them) insert casts
 * themselves; what that costs is part of what the variant measures.
 */
final class Fp16Transform {
    private static final String SUFFIX = ".fp16";
    /** The zoo decoder's rotary angle nodes (rope_cos, rope_sin and their parts). */
    private static final String ROPE = "rope_";

    private Fp16Transform() {
    }

    static ModelProto apply(ModelProto source) {
        return apply(source, false, n -> false);
    }

    /**
     * The float16 variant of a decoder as fp16 exports ship it: caches and logits are float16 at the graph's boundary
     * too (half the cache's bytes), and the rotary angles (position x frequency, then cos and sin) stay float32 up to
     * their cos and sin, as Hugging Face computes them: in float16 an angle near position 255 would be off by up to
     * 1/16 radian.
     */
    static ModelProto decoder(ModelProto source) {
        return apply(source, true, n -> n.getName().startsWith(ROPE));
    }

    /** Whether {@code model} takes a KV cache ({@code past_key_values.N.key/value}): a decoder. */
    static boolean isDecoder(ModelProto model) {
        return model.getGraph().getInputList().stream().anyMatch(i -> i.getName().startsWith("past_key_values."));
    }

    /**
     * @param halfBoundary float inputs and outputs become float16 themselves; otherwise casts keep them float32
     * @param keepFloat    nodes left in float32, with their initializers; their float outputs are cast to float16
     *                     for the nodes that read them. Their inputs must be theirs, initializers or non-float inputs
     */
    private static ModelProto apply(ModelProto source, boolean halfBoundary, Predicate<NodeProto> keepFloat) {
        GraphProto g = source.getGraph();
        GraphProto.Builder out = g.toBuilder().clearNode().clearInitializer().clearValueInfo();
        Map<String, String> renamed = new HashMap<>();
        List<NodeProto> nodes = new ArrayList<>();
        for (int i = 0; i < g.getInputCount(); i++) {
            ValueInfoProto in = g.getInput(i);
            if (isFloat(in) && halfBoundary) {
                out.setInput(i, half(in));
            } else if (isFloat(in)) {
                renamed.put(in.getName(), in.getName() + SUFFIX);
                nodes.add(cast(in.getName(), in.getName() + SUFFIX, TensorData.FLOAT16));
            }
        }
        Map<String, String> outputs = new HashMap<>();
        for (int i = 0; i < g.getOutputCount(); i++) {
            ValueInfoProto o = g.getOutput(i);
            if (isFloat(o) && halfBoundary) {
                out.setOutput(i, half(o));
            } else if (isFloat(o)) {
                outputs.put(o.getName(), o.getName() + SUFFIX);
            }
        }
        Set<String> kept = new HashSet<>(); // outputs of the nodes left in float32
        Set<String> readByHalf = new HashSet<>(); // what the float16 nodes read
        for (NodeProto n : g.getNodeList()) {
            if (keepFloat.test(n)) {
                kept.addAll(n.getOutputList());
            } else {
                readByHalf.addAll(n.getInputList());
            }
        }
        Set<String> initializers = new HashSet<>();
        g.getInitializerList().forEach(t -> initializers.add(t.getName()));
        Map<String, String> halved = new HashMap<>(); // a kept node's output -> its float16 cast, for the others
        for (NodeProto n : g.getNodeList()) {
            if (keepFloat.test(n)) {
                checkKeptInputs(n, kept, initializers, g);
                nodes.add(n);
                for (String o : n.getOutputList()) {
                    if (readByHalf.contains(o)) {
                        halved.put(o, o + SUFFIX);
                        nodes.add(cast(o, o + SUFFIX, TensorData.FLOAT16));
                    }
                }
                continue;
            }
            NodeProto.Builder b = n.toBuilder();
            for (int i = 0; i < b.getInputCount(); i++) {
                String name = b.getInput(i);
                b.setInput(i, halved.getOrDefault(name, renamed.getOrDefault(name, outputs.getOrDefault(name, name))));
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
            if (outputs.containsKey(o.getName())) {
                nodes.add(cast(o.getName() + SUFFIX, o.getName(), TensorData.FLOAT));
            }
        }
        for (TensorProto t : g.getInitializerList()) {
            boolean float32 = !readByHalf.contains(t.getName()); // read by float32 nodes only
            out.addInitializer(t.getDataType() == TensorData.FLOAT && !float32
                    ? TensorData.halfTensor(t.getName(), t.getDimsList(), TensorData.floats(t)) : t);
        }
        return source.toBuilder().setGraph(out.addAllNode(nodes)).build();
    }

    private static void checkKeptInputs(NodeProto n, Set<String> kept, Set<String> initializers, GraphProto g) {
        for (String in : n.getInputList()) {
            boolean nonFloatInput = g.getInputList().stream().anyMatch(v -> v.getName().equals(in) && !isFloat(v));
            if (!kept.contains(in) && !initializers.contains(in) && !nonFloatInput) {
                throw new IllegalArgumentException("node " + n.getName() + " cannot stay float32: its input " + in
                        + " is computed in float16");
            }
        }
        for (String o : n.getOutputList()) {
            if (g.getOutputList().stream().anyMatch(v -> v.getName().equals(o))) {
                throw new IllegalArgumentException("node " + n.getName() + " cannot stay float32: it writes the"
                        + " graph's output " + o);
            }
        }
    }

    private static ValueInfoProto half(ValueInfoProto v) {
        ValueInfoProto.Builder b = v.toBuilder();
        b.getTypeBuilder().getTensorTypeBuilder().setElemType(TensorData.FLOAT16);
        return b.build();
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

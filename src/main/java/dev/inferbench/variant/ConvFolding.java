package dev.inferbench.variant;

import java.util.HashSet;
import ai.onnx.proto.OnnxMl.AttributeProto;
import ai.onnx.proto.OnnxMl.GraphProto;
import ai.onnx.proto.OnnxMl.ModelProto;
import ai.onnx.proto.OnnxMl.NodeProto;
import ai.onnx.proto.OnnxMl.TensorProto;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The float32 rewrite that precedes quantization, as every QDQ quantizer does it: a BatchNormalization after a
 * Conv is folded into the Conv's weights and bias, and a Relu after a Conv is dropped because the uint8 activation
 * quantizer that follows (zero point at 0 for a non-negative range) clamps at zero exactly as the Relu did. Without
 * this the engine could not fuse Conv and its QDQ pairs into one integer convolution. The result computes the same
 * function; tensor names stay those of the source (the Conv writes the name the BatchNormalization or Relu wrote),
 * so calibration on the source model gives the ranges of the rewritten one.
 */
final class ConvFolding {
    private ConvFolding() {
    }

    static ModelProto apply(ModelProto source) {
        GraphProto g = source.getGraph();
        Map<String, TensorProto> inits = new LinkedHashMap<>();
        g.getInitializerList().forEach(t -> inits.put(t.getName(), t));
        Map<String, List<NodeProto>> consumers = consumers(g.getNodeList());
        Set<String> graphOutputs = g.getOutputList().stream().map(v -> v.getName()).collect(Collectors.toSet());
        Set<NodeProto> dropped = new HashSet<>();
        Map<NodeProto, NodeProto> replaced = new HashMap<>();
        for (NodeProto conv : g.getNodeList()) {
            if (!conv.getOpType().equals("Conv") || !inits.containsKey(conv.getInput(1))) {
                continue;
            }
            NodeProto.Builder c = conv.toBuilder();
            NodeProto next = soleConsumer(c.getOutput(0), consumers, graphOutputs);
            if (next != null && next.getOpType().equals("BatchNormalization") && allInits(next, inits)) {
                foldBatchNorm(c, next, inits);
                c.setOutput(0, next.getOutput(0));
                dropped.add(next);
                next = soleConsumer(c.getOutput(0), consumers, graphOutputs);
            }
            if (next != null && next.getOpType().equals("Relu")) {
                c.setOutput(0, next.getOutput(0));
                dropped.add(next);
            }
            replaced.put(conv, c.build());
        }
        GraphProto.Builder out = g.toBuilder().clearNode().clearInitializer().clearValueInfo();
        for (NodeProto n : g.getNodeList()) {
            if (!dropped.contains(n)) {
                out.addNode(replaced.getOrDefault(n, n));
            }
        }
        Set<String> used = new HashSet<>();
        out.getNodeList().forEach(n -> used.addAll(n.getInputList()));
        inits.values().stream().filter(t -> used.contains(t.getName())).forEach(out::addInitializer);
        return source.toBuilder().setGraph(out).build();
    }

    static Map<String, List<NodeProto>> consumers(List<NodeProto> nodes) {
        Map<String, List<NodeProto>> consumers = new HashMap<>();
        for (NodeProto n : nodes) {
            for (String in : n.getInputList()) {
                consumers.computeIfAbsent(in, k -> new ArrayList<>()).add(n);
            }
        }
        return consumers;
    }

    private static NodeProto soleConsumer(String tensor, Map<String, List<NodeProto>> consumers, Set<String> outputs) {
        List<NodeProto> users = consumers.getOrDefault(tensor, List.of());
        return users.size() == 1 && !outputs.contains(tensor) ? users.get(0) : null;
    }

    private static boolean allInits(NodeProto bn, Map<String, TensorProto> inits) {
        return bn.getInputList().subList(1, 5).stream().allMatch(inits::containsKey);
    }

    /** W' = W * gamma / sqrt(var + eps) per output channel; b' = (b - mean) * gamma / sqrt(var + eps) + beta. */
    private static void foldBatchNorm(NodeProto.Builder conv, NodeProto bn, Map<String, TensorProto> inits) {
        float eps = bn.getAttributeList().stream().filter(a -> a.getName().equals("epsilon"))
                .map(AttributeProto::getF).findFirst().orElse(1e-5f);
        float[] gamma = TensorData.floats(inits.get(bn.getInput(1)));
        float[] beta = TensorData.floats(inits.get(bn.getInput(2)));
        float[] mean = TensorData.floats(inits.get(bn.getInput(3)));
        float[] var = TensorData.floats(inits.get(bn.getInput(4)));
        TensorProto wt = inits.get(conv.getInput(1));
        float[] w = TensorData.floats(wt);
        int channels = gamma.length;
        int perChannel = w.length / channels;
        float[] bias = conv.getInputCount() > 2 ? TensorData.floats(inits.get(conv.getInput(2))) : new float[channels];
        for (int c = 0; c < channels; c++) {
            float k = (float) (gamma[c] / Math.sqrt(var[c] + eps));
            for (int i = 0; i < perChannel; i++) {
                w[c * perChannel + i] *= k;
            }
            bias[c] = (bias[c] - mean[c]) * k + beta[c];
        }
        String wName = conv.getInput(1) + ".folded";
        String bName = conv.getOutput(0) + ".folded_bias";
        inits.put(wName, TensorData.floatTensor(wName, wt.getDimsList(), w));
        inits.put(bName, TensorData.floatTensor(bName, List.of((long) channels), bias));
        conv.setInput(1, wName);
        if (conv.getInputCount() > 2) {
            conv.setInput(2, bName);
        } else {
            conv.addInput(bName);
        }
    }
}

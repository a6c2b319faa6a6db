package dev.inferbench.model.stats;

import ai.onnx.proto.OnnxMl.AttributeProto;
import ai.onnx.proto.OnnxMl.AttributeProto.AttributeType;
import ai.onnx.proto.OnnxMl.GraphProto;
import ai.onnx.proto.OnnxMl.ModelProto;
import ai.onnx.proto.OnnxMl.NodeProto;
import ai.onnx.proto.OnnxMl.TensorProto;
import ai.onnx.proto.OnnxMl.ValueInfoProto;
import com.google.protobuf.ByteString;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One network written the ways real exporters write it, by rewriting its protobuf: the same weights and the same
 * arithmetic, so each form must read the parameters and MACs of the original. The quantized kernels are in
 * {@link IntegerKernels}.
 */
final class ExportForms {
    static final int FLOAT = TensorProto.DataType.FLOAT_VALUE;
    static final int INT64 = TensorProto.DataType.INT64_VALUE;
    static final int BOOL = TensorProto.DataType.BOOL_VALUE;

    private ExportForms() {
    }

    /** Every initializer turned into a Constant node ahead of the graph, as constant-folding exporters leave it. */
    static ModelProto constants(ModelProto model) {
        GraphProto g = model.getGraph();
        GraphProto.Builder b = g.toBuilder().clearInitializer().clearNode();
        for (TensorProto t : g.getInitializerList()) {
            TensorProto value = t.toBuilder().clearName().build();
            b.addNode(node("Constant", t.getName()).addAttribute(tensorAttr("value", value)));
        }
        b.addAllNode(g.getNodeList());
        return withGraph(model, b, inputsWithoutWeights(g));
    }

    /**
     * The network as the then-branch of an If, weights in that branch's own initializers; the else-branch passes the
     * input through. The condition is computed, as exporters of an input check compute it.
     */
    static ModelProto inIf(ModelProto model) {
        GraphProto g = model.getGraph();
        String out = g.getOutput(0).getName();
        GraphProto then = GraphProto.newBuilder().setName("then").addAllNode(g.getNodeList())
                .addAllInitializer(g.getInitializerList()).addOutput(g.getOutput(0)).build();
        GraphProto other = GraphProto.newBuilder().setName("else")
                .addNode(node("Identity", "fallback").addInput(g.getInput(0).getName()))
                .addOutput(ValueInfoProto.newBuilder().setName("fallback")).build();
        GraphProto.Builder b = g.toBuilder().clearInitializer().clearNode().clearValueInfo().clearOutput()
                .addNode(node("Constant", "one").addAttribute(tensorAttr("value", scalar(INT64, 1))))
                .addNode(node("Equal", "cond").addInput("one").addInput("one"))
                .addNode(node("If", out + ".if").addInput("cond")
                        .addAttribute(graphAttr("then_branch", then)).addAttribute(graphAttr("else_branch", other)))
                .addOutput(g.getOutput(0).toBuilder().setName(out + ".if"));
        return withGraph(model, b, inputsWithoutWeights(g));
    }

    /**
     * The network as a Loop body whose outputs are stacked; {@code trips} is the trip count M, or null for a loop
     * that runs until its condition says stop (then no count is known).
     */
    static ModelProto inLoop(ModelProto model, Long trips) {
        GraphProto g = model.getGraph();
        String out = g.getOutput(0).getName();
        GraphProto body = GraphProto.newBuilder().setName("body")
                .addInput(ValueInfoProto.newBuilder().setName("iteration"))
                .addInput(ValueInfoProto.newBuilder().setName("cond_in"))
                .addNode(node("Identity", "cond_out").addInput("cond_in"))
                .addAllNode(g.getNodeList()).addAllInitializer(g.getInitializerList())
                .addOutput(ValueInfoProto.newBuilder().setName("cond_out")).addOutput(g.getOutput(0)).build();
        GraphProto.Builder b = g.toBuilder().clearInitializer().clearNode().clearValueInfo().clearOutput()
                .addNode(node("Constant", "go").addAttribute(tensorAttr("value", scalar(BOOL, 1))));
        NodeProto.Builder loop = node("Loop", out + ".stacked").addAttribute(graphAttr("body", body));
        if (trips != null) {
            b.addNode(node("Constant", "trips").addAttribute(tensorAttr("value", scalar(INT64, trips))));
            loop.addInput("trips");
        } else {
            loop.addInput("");
        }
        b.addNode(loop.addInput("go")).addOutput(ValueInfoProto.newBuilder().setName(out + ".stacked"));
        return withGraph(model, b, inputsWithoutWeights(g));
    }

    /**
     * The network as a Scan body over {@code length} frames along axis 1 of a {@code [1, length, ...]} input (a
     * clip of images); each frame is one input of the network.
     */
    static ModelProto inScan(ModelProto model, long length) {
        GraphProto g = model.getGraph();
        ValueInfoProto frame = g.getInput(0);
        ValueInfoProto.Builder clip = frame.toBuilder().setName("clip");
        var dims = clip.getTypeBuilder().getTensorTypeBuilder().getShapeBuilder();
        dims.getDimBuilder(0).clearDimParam().setDimValue(1);
        dims.addDim(1, dims.getDim(0).toBuilder().setDimValue(length));
        GraphProto body = GraphProto.newBuilder().setName("body").addInput(frame).addAllNode(g.getNodeList())
                .addAllInitializer(g.getInitializerList()).addOutput(g.getOutput(0)).build();
        String out = g.getOutput(0).getName() + ".frames";
        GraphProto.Builder b = g.toBuilder().clearInitializer().clearNode().clearValueInfo().clearOutput()
                .addNode(node("Scan", out).addInput("clip").addAttribute(graphAttr("body", body))
                        .addAttribute(intAttr("num_scan_inputs", 1))
                        .addAttribute(intAttr("scan_input_axes", 1).toBuilder().setType(AttributeType.INTS)
                                .clearI().addInts(1)))
                .addOutput(ValueInfoProto.newBuilder().setName(out));
        return withGraph(model, b, List.of(clip.build()));
    }

    private static AttributeProto intAttr(String name, long value) {
        return AttributeProto.newBuilder().setName(name).setType(AttributeType.INT).setI(value).build();
    }

    /** The input's leading (batch) dimension fixed at 1, as most exports declare {@code [1, 3, 1024, 1024]}. */
    static ModelProto fixedBatch(ModelProto model) {
        ModelProto.Builder b = model.toBuilder();
        b.getGraphBuilder().getInputBuilder(0).getTypeBuilder().getTensorTypeBuilder().getShapeBuilder()
                .getDimBuilder(0).clearDimParam().setDimValue(1);
        return b.build();
    }

    static NodeProto.Builder node(String op, String output) {
        return NodeProto.newBuilder().setOpType(op).setName(output).addOutput(output);
    }

    static TensorProto scalar(int type, long value) {
        TensorProto.Builder t = TensorProto.newBuilder().setDataType(type);
        return (type == INT64 ? t.addInt64Data(value) : t.addInt32Data((int) value)).build();
    }

    static TensorProto tensor(String name, int type, List<Long> dims, byte[] raw) {
        return TensorProto.newBuilder().setName(name).setDataType(type).addAllDims(dims)
                .setRawData(ByteString.copyFrom(raw)).build();
    }

    static AttributeProto tensorAttr(String name, TensorProto t) {
        return AttributeProto.newBuilder().setName(name).setType(AttributeType.TENSOR).setT(t).build();
    }

    private static AttributeProto graphAttr(String name, GraphProto g) {
        return AttributeProto.newBuilder().setName(name).setType(AttributeType.GRAPH).setG(g).build();
    }

    private static List<ValueInfoProto> inputsWithoutWeights(GraphProto g) {
        Set<String> weights = g.getInitializerList().stream().map(TensorProto::getName).collect(Collectors.toSet());
        return g.getInputList().stream().filter(v -> !weights.contains(v.getName())).toList();
    }

    private static ModelProto withGraph(ModelProto model, GraphProto.Builder g, List<ValueInfoProto> inputs) {
        return model.toBuilder().setGraph(g.clearInput().addAllInput(inputs)).build();
    }
}

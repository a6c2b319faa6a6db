package dev.inferbench.model;

import ai.onnx.proto.OnnxMl;
import dev.inferbench.model.Graph.Init;
import dev.inferbench.model.Graph.Node;
import dev.inferbench.model.Graph.Param;
import dev.inferbench.model.Graph.Value;
import org.tribuo.util.onnx.ONNXContext;
import org.tribuo.util.onnx.ONNXOperator;
import org.tribuo.util.onnx.ONNXOperators;
import org.tribuo.util.onnx.ONNXPlaceholder;
import org.tribuo.util.onnx.ONNXRef;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Renders a {@link Graph} as an ONNX model through Tribuo's ONNX writer. The input is declared with its real
 * per-sample shape ({@code [batch, C, H, W]} for images), which Tribuo's {@code floatInput} cannot express, so the
 * input's type is replaced after the graph is built.
 */
public final class OnnxExporter {
    private static final long IR_VERSION = 8; // ONNX 1.10+, the version matching opset 13

    private final long seed;

    public OnnxExporter(long seed) {
        this.seed = seed;
    }

    public OnnxMl.ModelProto export(Graph graph) {
        ONNXContext ctx = new ONNXContext();
        ctx.setName(graph.name());
        Value in = graph.inputs().get(0);
        ONNXPlaceholder input = ctx.floatInput("input", Math.toIntExact(in.elements()));
        Map<Integer, ONNXRef<?>> refs = new HashMap<>();
        refs.put(in.id(), input);
        for (Node n : graph.nodes()) {
            List<ONNXRef<?>> args = new ArrayList<>();
            n.inputs().forEach(v -> args.add(refs.get(v.id())));
            for (Param p : n.params()) {
                args.add(ctx.floatTensor(p.name(), dims(p.shape()), buf -> fill(buf, p)));
            }
            refs.put(n.output().id(), ctx.operation(operator(n), args, n.name() + ".out", attributes(n)));
        }
        for (Map.Entry<String, Value> out : graph.outputs().entrySet()) {
            refs.get(out.getValue().id()).assignTo(ctx.floatOutput(out.getKey(), Math.toIntExact(out.getValue().elements())));
        }
        OnnxMl.GraphProto.Builder g = ctx.buildGraph().toBuilder();
        g.setInput(0, g.getInput(0).toBuilder().setType(tensorType(in.shape())));
        return OnnxMl.ModelProto.newBuilder()
                .setIrVersion(IR_VERSION)
                .setProducerName("inferbench")
                .setDomain("dev.inferbench.zoo")
                .setModelVersion(1)
                .setDocString(graph.name() + ", seed " + seed)
                .addOpsetImport(ONNXOperators.getOpsetProto())
                .setGraph(g)
                .build();
    }

    /** Writes the model; the caller owns and closes the stream. */
    public void write(Graph graph, OutputStream out) throws IOException {
        export(graph).writeTo(out);
    }

    private static ONNXOperator operator(Node n) {
        return switch (n.op()) {
            case CONV -> OnnxOps.CONV;
            case BATCH_NORM -> OnnxOps.BATCH_NORMALIZATION;
            case RELU -> OnnxOps.RELU;
            case MAX_POOL -> OnnxOps.MAX_POOL;
            case ADD -> ONNXOperators.ADD;
            case GLOBAL_AVG_POOL -> OnnxOps.GLOBAL_AVERAGE_POOL;
            case FLATTEN -> OnnxOps.FLATTEN;
            case LINEAR -> ONNXOperators.GEMM;
            case SOFTMAX -> ONNXOperators.SOFTMAX;
        };
    }

    private static Map<String, Object> attributes(Node n) {
        Map<String, Object> a = new LinkedHashMap<>();
        switch (n.op()) {
            case CONV, MAX_POOL -> {
                int k = (Integer) n.attrs().get("kernel");
                int s = (Integer) n.attrs().get("stride");
                int p = (Integer) n.attrs().get("pad");
                a.put("kernel_shape", new int[]{k, k});
                a.put("strides", new int[]{s, s});
                a.put("pads", new int[]{p, p, p, p});
            }
            case BATCH_NORM -> a.put("epsilon", 1e-5f);
            case FLATTEN, SOFTMAX -> a.put("axis", 1);
            case LINEAR -> a.put("transB", 1);
            default -> { }
        }
        return a;
    }

    private void fill(FloatBuffer buf, Param p) {
        Init init = p.init();
        if (!init.uniform()) {
            while (buf.hasRemaining()) {
                buf.put(init.value());
            }
            return;
        }
        // Each parameter has its own stream, keyed by name, so a change in one layer leaves all others' weights alone.
        var rnd = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + p.name().hashCode());
        float bound = init.value();
        while (buf.hasRemaining()) {
            buf.put((float) ((rnd.nextDouble() * 2 - 1) * bound));
        }
    }

    private static List<Integer> dims(long[] shape) {
        return Arrays.stream(shape).mapToObj(Math::toIntExact).toList();
    }

    private static OnnxMl.TypeProto tensorType(long[] perSample) {
        OnnxMl.TensorShapeProto.Builder shape = OnnxMl.TensorShapeProto.newBuilder();
        shape.addDim(OnnxMl.TensorShapeProto.Dimension.newBuilder().setDimParam("batch"));
        for (long d : perSample) {
            shape.addDim(OnnxMl.TensorShapeProto.Dimension.newBuilder().setDimValue(d));
        }
        return OnnxMl.TypeProto.newBuilder().setTensorType(OnnxMl.TypeProto.Tensor.newBuilder()
                .setElemType(OnnxMl.TensorProto.DataType.FLOAT.getNumber()).setShape(shape)).build();
    }
}

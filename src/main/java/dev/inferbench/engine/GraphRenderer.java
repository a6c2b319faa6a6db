package dev.inferbench.engine;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.nn.convolutional.Conv2d;
import ai.djl.nn.core.Linear;
import ai.djl.nn.norm.BatchNorm;
import ai.djl.nn.pooling.Pool;
import dev.inferbench.BenchException;
import dev.inferbench.model.Graph;
import dev.inferbench.model.Graph.Node;
import dev.inferbench.model.Graph.Op;
import dev.inferbench.model.Graph.Param;

import java.nio.FloatBuffer;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A zoo {@link Graph} as a function over DJL NDArrays, for engines without an ONNX importer (DJL's PyTorch engine):
 * each node becomes the DJL operator that computes what the ONNX writer's operator computes, with the weights the
 * ONNX file holds, looked up by parameter name. The network itself stays written once, in the zoo.
 */
final class GraphRenderer {
    /** The ops rendered here; a graph with any other op is refused when rendered, not when run. */
    static final Set<Op> SUPPORTED = EnumSet.of(Op.CONV, Op.BATCH_NORM, Op.RELU, Op.MAX_POOL, Op.ADD,
            Op.GLOBAL_AVG_POOL, Op.FLATTEN, Op.LINEAR, Op.SOFTMAX);
    private static final float BATCH_NORM_EPSILON = 1e-5f; // the epsilon the ONNX writer stores

    private final Graph graph;
    private final Map<String, NDArray> weights;

    private GraphRenderer(Graph graph, Map<String, NDArray> weights) {
        this.graph = graph;
        this.weights = weights;
    }

    /**
     * @param engineId   for messages
     * @param initializers the ONNX file's float initializers by name
     * @param manager    owns the weight arrays for the model's lifetime
     */
    static GraphRenderer render(String engineId, Graph graph, Map<String, FloatBuffer> initializers, NDManager manager)
            throws BenchException {
        Map<String, NDArray> weights = new HashMap<>();
        for (Node n : graph.nodes()) {
            if (!SUPPORTED.contains(n.op())) {
                throw new BenchException("engine '" + engineId + "' cannot render op " + n.op() + " of model "
                        + graph.name() + " yet; supported: " + SUPPORTED.stream().map(Op::name)
                        .collect(Collectors.joining(", ")));
            }
            for (Param p : n.params()) {
                // Tribuo's ONNX writer makes initializer names unique with a counter suffix: "fc1.weight_0".
                FloatBuffer data = initializers.getOrDefault(p.name(), initializers.get(p.name() + "_0"));
                if (data == null) {
                    throw new BenchException("the ONNX file of model " + graph.name() + " has no float initializer '"
                            + p.name() + "'; expected the zoo's weights (regenerate the file)");
                }
                weights.put(p.name(), manager.create(data.duplicate().rewind(), new Shape(p.shape())));
            }
        }
        return new GraphRenderer(graph, weights);
    }

    /** Runs the graph on one batched input; every array it creates is attached to the input's manager. */
    NDList forward(NDList inputs) {
        Map<Integer, NDArray> values = new HashMap<>();
        values.put(graph.inputs().get(0).id(), inputs.head());
        for (Node n : graph.nodes()) {
            List<NDArray> in = n.inputs().stream().map(v -> values.get(v.id())).toList();
            values.put(n.output().id(), apply(n, in));
        }
        NDList out = new NDList(graph.outputs().size());
        graph.outputs().forEach((name, v) -> {
            NDArray a = values.get(v.id());
            a.setName(name);
            out.add(a);
        });
        return out;
    }

    private NDArray apply(Node n, List<NDArray> in) {
        NDArray x = in.get(0);
        return switch (n.op()) {
            case CONV -> Conv2d.conv2d(x, weight(n, 0), null, square(n, "stride"), square(n, "pad"),
                    new Shape(1, 1), (Integer) n.attrs().getOrDefault("group", 1)).head();
            case BATCH_NORM -> BatchNorm.batchNorm(x, weight(n, 2), weight(n, 3), weight(n, 0), weight(n, 1), 1,
                    0.9f, BATCH_NORM_EPSILON, false).head();
            case RELU -> Activation.relu(x);
            case MAX_POOL -> Pool.maxPool2d(x, square(n, "kernel"), square(n, "stride"), square(n, "pad"), false);
            case ADD -> x.add(in.get(1));
            case GLOBAL_AVG_POOL -> Pool.globalAvgPool2d(x).reshape(x.getShape().get(0), x.getShape().get(1), 1, 1);
            case FLATTEN -> x.reshape(x.getShape().get(0), -1);
            case LINEAR -> Linear.linear(x, weight(n, 0), weight(n, 1)).head();
            case SOFTMAX -> x.softmax(1); // axis 1, as the ONNX writer sets it
            default -> throw new IllegalStateException("op " + n.op() + " passed render() but has no rendering");
        };
    }

    private NDArray weight(Node n, int index) {
        return weights.get(n.params().get(index).name());
    }

    private static Shape square(Node n, String attr) {
        long v = ((Integer) n.attrs().get(attr)).longValue();
        return new Shape(v, v);
    }
}

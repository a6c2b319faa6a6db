package dev.inferbench.engine;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.nn.convolutional.Conv2d;
import ai.djl.nn.core.Linear;
import ai.djl.nn.norm.BatchNorm;
import ai.djl.nn.norm.LayerNorm;
import ai.djl.nn.pooling.Pool;
import dev.inferbench.BenchException;
import dev.inferbench.model.Graph;
import dev.inferbench.model.Graph.Node;
import dev.inferbench.model.Graph.Op;
import dev.inferbench.model.Graph.Param;

import java.nio.FloatBuffer;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A zoo {@link Graph} as a function over DJL NDArrays, for engines without an ONNX importer (DJL's PyTorch engine):
 * each node becomes the DJL operator that computes what the ONNX writer's operator computes, with the weights the
 * ONNX file holds, looked up by parameter name. The network itself stays written once, in the zoo. The switch over
 * {@link Op} has no default, so an op added to the Graph API does not compile until it is rendered here too.
 */
final class GraphRenderer {
    private static final float BATCH_NORM_EPSILON = 1e-5f; // the epsilon the ONNX writer stores

    private final Graph graph;
    private final Map<String, NDArray> weights;
    /** Per node, in graph order: the ids of its inputs; a call's values are an array indexed by value id. */
    private final int[][] inputIds;
    private final int values;
    /** Per node, in graph order: its stride, pad and kernel as square shapes where it has them (else null). */
    private final Shape[][] squares;

    private GraphRenderer(Graph graph, Map<String, NDArray> weights) {
        this.graph = graph;
        this.weights = weights;
        // what a call would otherwise rebuild per node (a map of values, a list of inputs, shapes from attributes):
        // made once here, it is garbage a call does not make (rebuilt per call it was 340 KB of heap per resnet50 call,
        // a fifth of it the renderer's own)
        List<Node> nodes = graph.nodes();
        inputIds = new int[nodes.size()][];
        squares = new Shape[nodes.size()][];
        int maxId = graph.inputs().stream().mapToInt(Graph.Value::id).max().orElse(0);
        for (int i = 0; i < nodes.size(); i++) {
            Node n = nodes.get(i);
            inputIds[i] = n.inputs().stream().mapToInt(Graph.Value::id).toArray();
            squares[i] = new Shape[]{square(n, "stride"), square(n, "pad"), square(n, "kernel")};
            maxId = Math.max(maxId, Math.max(n.output().id(), Arrays.stream(inputIds[i]).max().orElse(0)));
        }
        values = maxId + 1;
    }

    /**
     * @param initializers the ONNX file's float initializers by name
     * @param manager    owns the weight arrays for the model's lifetime
     */
    static GraphRenderer render(Graph graph, Map<String, FloatBuffer> initializers, NDManager manager)
            throws BenchException {
        Map<String, NDArray> weights = new LinkedHashMap<>();
        for (Node n : graph.nodes()) {
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
        return forward(inputs, false);
    }

    /**
     * @param training batch normalisation from the batch's own statistics (updating the running ones), as a
     *                 training step computes it; otherwise from the stored ones, as inference does
     */
    NDList forward(NDList inputs, boolean training) {
        NDArray[] at = new NDArray[values];
        List<Graph.Value> declared = graph.inputs();
        for (int i = 0; i < declared.size(); i++) {
            at[declared.get(i).id()] = inputs.get(i); // the engine prepares inputs in signature order
        }
        List<Node> nodes = graph.nodes();
        for (int i = 0; i < nodes.size(); i++) {
            Node n = nodes.get(i);
            at[n.output().id()] = apply(n, at, inputIds[i], squares[i], training);
        }
        NDList out = new NDList(graph.outputs().size());
        graph.outputs().forEach((name, v) -> {
            NDArray a = at[v.id()];
            a.setName(name);
            out.add(a);
        });
        return out;
    }

    private static final int STRIDE = 0;
    private static final int PAD = 1;
    private static final int KERNEL = 2;
    private static final Shape DILATION = new Shape(1, 1);

    /**
     * Per-sample axes and shapes of the Graph API gain the batch dimension in front here, as in the ONNX writer.
     *
     * @param at  the call's values by id; {@code ids} are the node's inputs among them
     * @param sq  the node's stride, pad and kernel shapes (null where it has none)
     */
    private NDArray apply(Node n, NDArray[] at, int[] ids, Shape[] sq, boolean training) {
        NDArray x = at[ids[0]];
        Map<String, Object> a = n.attrs();
        return switch (n.op()) {
            case CONV -> Conv2d.conv2d(x, weight(n, 0), n.params().size() > 1 ? weight(n, 1) : null,
                    sq[STRIDE], sq[PAD], DILATION, (Integer) a.getOrDefault("group", 1)).head();
            case BATCH_NORM -> BatchNorm.batchNorm(x, weight(n, 2), weight(n, 3), weight(n, 0), weight(n, 1), 1,
                    0.9f, BATCH_NORM_EPSILON, training).head();
            case RELU -> Activation.relu(x);
            case CLIP -> x.clip((Float) a.get("min"), (Float) a.get("max"));
            case MAX_POOL -> Pool.maxPool2d(x, sq[KERNEL], sq[STRIDE], sq[PAD], false);
            case ADD -> x.add(n.params().isEmpty() ? at[ids[1]] : weight(n, 0)); // a value, or a learned tensor
            case MUL -> x.mul(at[ids[1]]);
            case SCALE -> x.mul((Float) a.get("factor"));
            case GLOBAL_AVG_POOL -> Pool.globalAvgPool2d(x).reshape(x.getShape().get(0), x.getShape().get(1), 1, 1);
            case FLATTEN -> x.reshape(x.getShape().get(0), -1);
            case LINEAR -> Linear.linear(x, weight(n, 0), weight(n, 1)).head();
            case SOFTMAX -> x.softmax(Graph.batchedAxis((Integer) a.get("axis")));
            case MATMUL -> x.matMul(at[ids[1]]);
            case DENSE -> x.matMul(weight(n, 0)).add(weight(n, 1));
            case LAYER_NORM -> LayerNorm.layerNorm(x, new Shape(x.getShape().tail()), weight(n, 0), weight(n, 1),
                    (Float) a.get("epsilon")).head();
            case GELU -> x.mul(x.div(Math.sqrt(2)).erf().add(1)).mul(0.5f);
            case TANH -> x.tanh();
            case RESHAPE -> x.reshape(withBatch(x, (long[]) a.get("shape")));
            case TRANSPOSE -> x.transpose(Graph.batchedPerm((int[]) a.get("perm")));
            case EMBEDDING -> embedding(weight(n, 0), x);
            case POSITIONS -> x.add(sameCall(weight(n, 0).get(new NDIndex("0:{}", x.getShape().get(1))), x));
            case ADD_ROW -> x.add(sameCall(weight(n, 0).get((long) (Integer) a.get("row")), x));
            case CLASS_TOKEN -> sameCall(weight(n, 0).broadcast(x.getShape().get(0), 1, x.getShape().get(2)), x)
                    .concat(x, 1);
            case SELECT -> x.get(select((Integer) a.get("axis"), (Integer) a.get("index")));
            case MASK_BIAS -> x.toType(DataType.FLOAT32, false).neg().add(1).mul((Float) a.get("masked"))
                    .reshape(x.getShape().get(0), 1, 1, -1);
            // a decoder's step needs its cache fed back between calls, which a Predictor over one fixed input does
            // not do: DecoderKind refuses djl-pytorch for decoders before a graph gets here
            case RMS_NORM, SILU, PROJECT, CONCAT, ROPE_ANGLES, ROTARY, CAUSAL_BIAS -> throw new UnsupportedOperationException(
                    "engine 'djl-pytorch' does not render decoder op " + n.op() + " of " + graph.name());
        };
    }

    /** Rows of a {@code [rows, width]} table by integer ids of any shape: ONNX's Gather on axis 0. */
    private static NDArray embedding(NDArray table, NDArray ids) {
        long width = table.getShape().get(1);
        NDArray rows = ids.toType(DataType.INT64, false).reshape(-1, 1).broadcast(ids.size(), width);
        return sameCall(table.gather(rows, 0), ids).reshape(ids.getShape().addAll(new Shape(width)));
    }

    /**
     * {@code made}, which an operation on a weight created under the model's manager (DJL attaches a result to the
     * manager of its first operand), moved to the call's manager, the one of {@code callArray}: otherwise every call
     * would leave it under the model until the model closes.
     */
    private static NDArray sameCall(NDArray made, NDArray callArray) {
        made.attach(callArray.getManager());
        return made;
    }

    /** Index {@code index} on per-sample axis {@code axis}, every other axis whole. */
    private static NDIndex select(int axis, int index) {
        return new NDIndex(":, ".repeat(axis + 1) + index);
    }

    /** A per-sample target shape with this batch in front; the sequence dimension is inferred. */
    private static Shape withBatch(NDArray x, long[] perSample) {
        long[] dims = new long[perSample.length + 1];
        dims[0] = x.getShape().get(0);
        System.arraycopy(perSample, 0, dims, 1, perSample.length); // Graph.SEQ is -1: inferred, as ONNX does
        return new Shape(dims);
    }

    /**
     * The weights a training step computes gradients for and updates, by parameter name: the graph's trainable
     * parameters, so not batch normalisation's running mean and variance, which the forward updates in place.
     */
    Map<String, NDArray> trainable() {
        Map<String, NDArray> out = new LinkedHashMap<>();
        graph.nodes().stream().flatMap(n -> n.params().stream()).filter(Param::trainable)
                .forEach(p -> out.put(p.name(), weights.get(p.name())));
        return Collections.unmodifiableMap(out);
    }

    private NDArray weight(Node n, int index) {
        return weights.get(n.params().get(index).name());
    }

    /** A square shape from an integer attribute; null where the node has no such attribute. */
    private static Shape square(Node n, String attr) {
        Object v = n.attrs().get(attr);
        return v instanceof Integer i ? new Shape(i.longValue(), i.longValue()) : null;
    }
}

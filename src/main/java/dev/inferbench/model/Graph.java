package dev.inferbench.model;

import dev.inferbench.tensor.TensorSpec.DType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small graph-building API: each zoo architecture is written once against it, and every backend (ONNX writer,
 * parameter counter, later other engines) renders the same list of nodes with the same named parameters.
 * Shapes are per sample: the batch dimension is implicit and always first. A dimension of {@value #SEQ} is the
 * sequence length, left dynamic in the written file so one file serves every {@code seqLen}. Convolutional ops
 * live here; sequence ops (attention, embeddings, layer norm) in {@link SequenceOps}.
 */
public final class Graph {
    /** The dynamic sequence dimension in a per-sample shape. */
    public static final long SEQ = -1;
    /** A decoder's cached length (tokens before this call) in a per-sample shape: {@code past_seq} in the file. */
    public static final long PAST = -2;
    /** A decoder's cached plus new length, {@code PAST + SEQ}: {@code total_seq} in the file. */
    public static final long TOTAL = -3;

    /** A tensor flowing between nodes; {@code shape} excludes the batch dimension. */
    public record Value(int id, long[] shape) {
        public int rank() {
            return shape.length;
        }

        public long dim(int axis) {
            return shape[axis < 0 ? shape.length + axis : axis];
        }

        public long elements() {
            return Arrays.stream(shape).reduce(1, Math::multiplyExact);
        }
    }

    /** How a parameter's values are drawn: uniform in [-bound, bound] or one constant. */
    public record Init(boolean uniform, float value) {
        public static Init uniform(double bound) {
            return new Init(true, (float) bound);
        }

        public static Init constant(double value) {
            return new Init(false, (float) value);
        }
    }

    /** A weight tensor. Buffers (batch-norm running statistics) are stored but not counted as parameters. */
    public record Param(String name, long[] shape, Init init, boolean trainable) {
        public long elements() {
            return Arrays.stream(shape).reduce(1, Math::multiplyExact);
        }
    }

    /**
     * One operation; {@code attrs} keep insertion order so that written files are byte-identical run to run.
     * {@code name} prefixes its tensors and parameters; {@code path} is the node's unique name in its module
     * ({@code layer1.0.relu_1}): the module is what comes before its last dot (see {@link #scope}).
     */
    public record Node(Op op, String name, String path, List<Value> inputs, Value output, Map<String, Object> attrs,
                       List<Param> params) {
    }

    /** A named model input; {@code type} is the element type of the tensor fed to it. */
    public record Input(String name, DType type, Value value) {
    }

    /**
     * The operations; most map to one ONNX operator, a few (GELU, POSITIONS, CLASS_TOKEN, MASK_BIAS) to a short
     * fixed sequence of them. {@link OnnxNodes} renders each; {@code stats} counts their cost from the ONNX file.
     */
    public enum Op {
        CONV, BATCH_NORM, RELU, CLIP, MAX_POOL, ADD, MUL, SCALE, GLOBAL_AVG_POOL, FLATTEN, LINEAR, SOFTMAX,
        MATMUL, DENSE, LAYER_NORM, GELU, TANH, RESHAPE, TRANSPOSE, EMBEDDING, POSITIONS, ADD_ROW, CLASS_TOKEN,
        SELECT, MASK_BIAS,
        // decoder-only language models (DecoderOps)
        RMS_NORM, SILU, PROJECT, CONCAT, ROPE_ANGLES, ROTARY, CAUSAL_BIAS
    }

    private final String name;
    private final List<Input> inputs = new ArrayList<>();
    private final Map<String, String> metadata = new LinkedHashMap<>();
    private final List<Node> nodes = new ArrayList<>();
    private final Map<String, Value> outputs = new LinkedHashMap<>();
    private final Map<String, Integer> paths = new HashMap<>();
    private String scope = "";
    private int nextId;

    public Graph(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }

    public List<Value> inputs() {
        return inputs.stream().map(Input::value).toList();
    }

    public List<Input> inputSpecs() {
        return Collections.unmodifiableList(inputs);
    }

    /** Facts about the model written into the file's metadata (e.g. the token vocabulary), in insertion order. */
    public Map<String, String> metadata() {
        return Collections.unmodifiableMap(metadata);
    }

    public void metadata(String key, String value) {
        metadata.put(key, value);
    }

    public List<Node> nodes() {
        return Collections.unmodifiableList(nodes);
    }

    public Map<String, Value> outputs() {
        return Collections.unmodifiableMap(outputs);
    }

    /**
     * Trainable parameters, the figure torchvision and papers quote. A parameter two nodes use (tied embeddings) is
     * one tensor in the file and is counted once.
     */
    public long parameterCount() {
        Map<String, Param> distinct = new LinkedHashMap<>();
        nodes.forEach(n -> n.params().forEach(p -> distinct.putIfAbsent(p.name(), p)));
        return distinct.values().stream().filter(Param::trainable).mapToLong(Param::elements).sum();
    }

    /** The single float input of an image or feature model, named {@code input}. */
    public Value input(long... shape) {
        return input("input", DType.FLOAT32, shape);
    }

    public Value input(String inputName, DType type, long... shape) {
        if (inputs.stream().anyMatch(i -> i.name().equals(inputName))) {
            throw new IllegalArgumentException("duplicate input " + inputName);
        }
        Value v = value(shape);
        inputs.add(new Input(inputName, type, v));
        return v;
    }

    public void output(String outputName, Value v) {
        outputs.put(outputName, v);
    }

    public Value conv(String layer, Value x, int outChannels, int kernel, int stride, int pad) {
        return conv(layer, x, outChannels, kernel, stride, pad, 1, false);
    }

    /** A convolution of {@code groups} groups (depthwise when groups equals the channels), with a bias or not. */
    public Value conv(String layer, Value x, int outChannels, int kernel, int stride, int pad, int groups,
                      boolean bias) {
        long inChannels = x.shape()[0];
        if (inChannels % groups != 0 || outChannels % groups != 0) {
            throw new IllegalArgumentException(layer + ": " + inChannels + " -> " + outChannels
                    + " channels do not split into " + groups + " groups");
        }
        long fanIn = inChannels / groups * kernel * kernel;
        double bound = Math.sqrt(6.0 / fanIn); // He-uniform: keeps activations O(1) through ReLU
        List<Param> params = new ArrayList<>();
        params.add(new Param(layer + ".weight", new long[]{outChannels, inChannels / groups, kernel, kernel},
                Init.uniform(bound), true));
        if (bias) {
            params.add(new Param(layer + ".bias", new long[]{outChannels}, Init.uniform(1 / Math.sqrt(fanIn)), true));
        }
        Map<String, Object> attrs = window(kernel, stride, pad);
        attrs.put("group", groups);
        return add(Op.CONV, layer, List.of(x), windowed(x, outChannels, kernel, stride, pad), attrs, params);
    }

    /** Batch norm with identity statistics; {@code gamma} below 1 damps a residual branch so deep nets stay finite. */
    public Value batchNorm(String layer, Value x, double gamma) {
        long[] c = {x.shape()[0]};
        List<Param> params = List.of(
                new Param(layer + ".weight", c, Init.constant(gamma), true),
                new Param(layer + ".bias", c, Init.constant(0), true),
                new Param(layer + ".running_mean", c, Init.constant(0), false),
                new Param(layer + ".running_var", c, Init.constant(1), false));
        return add(Op.BATCH_NORM, layer, List.of(x), value(x.shape()), Map.of(), params);
    }

    public Value relu(Value x) {
        return add(Op.RELU, "relu", List.of(x), value(x.shape()), Map.of(), List.of());
    }

    /** ReLU6 and other clamps. */
    public Value clip(Value x, double min, double max) {
        return add(Op.CLIP, "clip", List.of(x), value(x.shape()), attrs("min", (float) min, "max", (float) max), List.of());
    }

    public Value maxPool(Value x, int kernel, int stride, int pad) {
        return add(Op.MAX_POOL, "maxpool", List.of(x), windowed(x, x.shape()[0], kernel, stride, pad),
                window(kernel, stride, pad), List.of());
    }

    /** The output of a square sliding window (convolution, pooling) over a {@code [C, H, W]} value. */
    private Value windowed(Value x, long channels, int kernel, int stride, int pad) {
        long h = (x.shape()[1] + 2L * pad - kernel) / stride + 1;
        long w = (x.shape()[2] + 2L * pad - kernel) / stride + 1;
        return value(channels, h, w);
    }

    private static Map<String, Object> window(int kernel, int stride, int pad) {
        return attrs("kernel", kernel, "stride", stride, "pad", pad);
    }

    /** Element-wise sum with numpy broadcasting over the per-sample shapes. */
    public Value add(Value a, Value b) {
        return add(Op.ADD, "add", List.of(a, b), value(Broadcast.strict(a.shape(), b.shape())), Map.of(), List.of());
    }

    public Value mul(Value a, Value b) {
        return add(Op.MUL, "mul", List.of(a, b), value(Broadcast.strict(a.shape(), b.shape())), Map.of(), List.of());
    }

    /** Adds a learned tensor of {@code shape}, broadcast over the batch (and any leading size-1 dims). */
    public Value addParam(String paramName, Value x, long[] shape, Init init) {
        Param p = new Param(paramName, shape, init, true);
        return add(Op.ADD, paramName, List.of(x), value(Broadcast.strict(x.shape(), shape)), Map.of(), List.of(p));
    }

    public Value globalAvgPool(Value x) {
        return add(Op.GLOBAL_AVG_POOL, "gap", List.of(x), value(x.shape()[0], 1, 1), Map.of(), List.of());
    }

    public Value flatten(Value x) {
        return add(Op.FLATTEN, "flatten", List.of(x), value(x.elements()), Map.of(), List.of());
    }

    public Value linear(String layer, Value x, int outFeatures) {
        long in = x.shape()[0];
        double bound = 1.0 / Math.sqrt(in);
        List<Param> params = List.of(
                new Param(layer + ".weight", new long[]{outFeatures, in}, Init.uniform(Math.sqrt(3) * bound), true),
                new Param(layer + ".bias", new long[]{outFeatures}, Init.uniform(bound), true));
        return add(Op.LINEAR, layer, List.of(x), value(outFeatures), Map.of(), params);
    }

    public Value softmax(Value x) {
        return softmax(x, -1);
    }

    /** Softmax over one per-sample axis (negative counts from the end). */
    public Value softmax(Value x, int axis) {
        return add(Op.SOFTMAX, "softmax", List.of(x), value(x.shape()), attrs("axis", axis), List.of());
    }

    /**
     * Nodes added until the scope is closed belong to {@code module} (a full dotted path, as torchvision and Hugging
     * Face name their modules): a node of a plain name ({@code relu}) gets the path {@code module.relu}, numbered
     * when the name repeats ({@code module.relu_1}); a node named by a dotted path keeps it. Closing restores the
     * enclosing scope.
     */
    public Scope scope(String module) {
        Scope s = new Scope(scope);
        scope = module;
        return s;
    }

    /** An open {@link #scope}; closing it returns to the module it was opened in. */
    public final class Scope implements AutoCloseable {
        private final String enclosing;

        private Scope(String enclosing) {
            this.enclosing = enclosing;
        }

        @Override
        public void close() {
            scope = enclosing;
        }
    }

    Value add(Op op, String layer, List<Value> in, Value out, Map<String, Object> attrs, List<Param> params) {
        nodes.add(new Node(op, layer, path(layer), in, out, attrs, params));
        return out;
    }

    private String path(String layer) {
        String path = layer.indexOf('.') >= 0 || scope.isEmpty() ? layer : scope + "." + layer;
        int seen = paths.merge(path, 1, Integer::sum) - 1;
        return seen == 0 ? path : path + "_" + seen;
    }

    /** Attributes in the order given (key, value, key, value ...), a map that the caller may add to. */
    static Map<String, Object> attrs(Object... keysAndValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return m;
    }

    /** A per-sample axis as an axis of the batched tensor: non-negative ones move past the batch. */
    public static int batchedAxis(int perSample) {
        return perSample < 0 ? perSample : perSample + 1;
    }

    /** A per-sample permutation as one of the batched tensor, the batch staying first. */
    public static int[] batchedPerm(int[] perm) {
        int[] out = new int[perm.length + 1];
        for (int i = 0; i < perm.length; i++) {
            out[i + 1] = perm[i] + 1;
        }
        return out;
    }

    Value value(long... shape) {
        return new Value(nextId++, shape.clone());
    }
}

package dev.inferbench.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small graph-building API: each zoo architecture is written once against it, and every backend (ONNX writer,
 * parameter counter, later other engines) renders the same list of nodes with the same named parameters.
 * Shapes are per sample: the batch dimension is implicit and always first.
 */
public final class Graph {

    /** A tensor flowing between nodes; {@code shape} excludes the batch dimension. */
    public record Value(int id, long[] shape) {
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

    /** One operation; {@code attrs} keep insertion order so that written files are byte-identical run to run. */
    public record Node(Op op, String name, List<Value> inputs, Value output, Map<String, Object> attrs,
                       List<Param> params) {
    }

    public enum Op { CONV, BATCH_NORM, RELU, MAX_POOL, ADD, GLOBAL_AVG_POOL, FLATTEN, LINEAR, SOFTMAX }

    private final String name;
    private final List<Value> inputs = new ArrayList<>();
    private final List<Node> nodes = new ArrayList<>();
    private final Map<String, Value> outputs = new LinkedHashMap<>();
    private int nextId;

    public Graph(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }

    public List<Value> inputs() {
        return Collections.unmodifiableList(inputs);
    }

    public List<Node> nodes() {
        return Collections.unmodifiableList(nodes);
    }

    public Map<String, Value> outputs() {
        return Collections.unmodifiableMap(outputs);
    }

    /** Trainable parameters, the figure torchvision and papers quote. */
    public long parameterCount() {
        return nodes.stream().flatMap(n -> n.params().stream()).filter(Param::trainable).mapToLong(Param::elements).sum();
    }

    public Value input(long... shape) {
        if (!inputs.isEmpty()) {
            throw new IllegalStateException("zoo graphs take one input");
        }
        Value v = value(shape);
        inputs.add(v);
        return v;
    }

    public void output(String outputName, Value v) {
        outputs.put(outputName, v);
    }

    public Value conv(String layer, Value x, int outChannels, int kernel, int stride, int pad) {
        long inChannels = x.shape()[0];
        double bound = Math.sqrt(6.0 / (inChannels * kernel * kernel)); // He-uniform: keeps activations O(1) through ReLU
        Param weight = new Param(layer + ".weight", new long[]{outChannels, inChannels, kernel, kernel},
                Init.uniform(bound), true);
        return add(Op.CONV, layer, List.of(x), windowed(x, outChannels, kernel, stride, pad),
                window(kernel, stride, pad), List.of(weight));
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
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("kernel", kernel);
        attrs.put("stride", stride);
        attrs.put("pad", pad);
        return attrs;
    }

    public Value add(Value a, Value b) {
        if (!Arrays.equals(a.shape(), b.shape())) {
            throw new IllegalArgumentException("add of " + Arrays.toString(a.shape()) + " and " + Arrays.toString(b.shape()));
        }
        return add(Op.ADD, "add", List.of(a, b), value(a.shape()), Map.of(), List.of());
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
        return add(Op.SOFTMAX, "softmax", List.of(x), value(x.shape()), Map.of(), List.of());
    }

    private Value add(Op op, String layer, List<Value> in, Value out, Map<String, Object> attrs, List<Param> params) {
        nodes.add(new Node(op, layer, in, out, attrs, params));
        return out;
    }

    private Value value(long... shape) {
        return new Value(nextId++, shape.clone());
    }
}

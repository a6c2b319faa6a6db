package dev.inferbench.model.stats;

import ai.onnx.proto.OnnxMl;
import ai.onnx.proto.OnnxMl.NodeProto;
import dev.inferbench.model.Broadcast;
import dev.inferbench.model.OnnxReader.Initializer;

import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

import static dev.inferbench.model.stats.ShapeRules.attrInt;
import static dev.inferbench.model.stats.ShapeRules.attrInts;
import static dev.inferbench.model.stats.ShapeRules.flatten;
import static dev.inferbench.model.stats.ShapeRules.gemm;
import static dev.inferbench.model.stats.ShapeRules.globalPool;
import static dev.inferbench.model.stats.ShapeRules.matmul;
import static dev.inferbench.model.stats.ShapeRules.reshape;
import static dev.inferbench.model.stats.ShapeRules.squeeze;
import static dev.inferbench.model.stats.ShapeRules.transpose;
import static dev.inferbench.model.stats.ShapeRules.window;

/**
 * Concrete shapes of the values of an ONNX graph, from its input shapes: enough of ONNX's shape inference for the
 * operators of CNNs and transformers, float or quantized (QDQ pairs, the integer and QLinear kernels), including
 * the Shape/Slice/Concat arithmetic exporters emit for dynamic sizes, whose small integer values are folded along,
 * and the bodies of If, Loop and Scan ({@link ControlFlow}). A value whose operator is not covered stays unknown,
 * and so does whatever depends on it; {@link MacCounter} says when that cost it a figure.
 */
final class ShapeInference {
    private static final Set<String> SAME_SHAPE = Set.of("Relu", "Clip", "Sigmoid", "Tanh", "Erf", "Gelu", "Softmax",
            "LogSoftmax", "LayerNormalization", "BatchNormalization", "InstanceNormalization", "Identity", "Dropout",
            "Neg", "Sqrt", "Exp", "Log", "Abs", "Reciprocal", "HardSigmoid", "HardSwish", "LeakyRelu", "Elu", "Selu",
            "Not", "Floor", "Ceil", "Round", "Softplus", "Mish", "Sign", "Cos", "Sin", "QuantizeLinear",
            "DequantizeLinear", "SimplifiedLayerNormalization", "FastGelu", "BiasGelu", "QLinearSigmoid",
            "QLinearLeakyRelu", "QLinearSoftmax", "Cast");
    private static final Set<String> BROADCAST = Set.of("Add", "Sub", "Mul", "Div", "Pow", "Where", "Equal",
            "Greater", "Less", "GreaterOrEqual", "LessOrEqual", "And", "Or", "Xor", "Max", "Min", "Sum", "Mod", "PRelu");

    final Map<String, long[]> shapes = new HashMap<>();
    /** Values of small integer tensors (shapes, axes, indices). */
    final Map<String, long[]> ints = new HashMap<>();
    /** The inferred bodies of this graph's If (then, else), Loop and Scan nodes. */
    final Map<NodeProto, List<ShapeInference>> bodies = new IdentityHashMap<>();
    /** Per Loop and Scan node, how many times its body runs; -1 when that is not known. */
    final Map<NodeProto, Long> trips = new IdentityHashMap<>();
    final List<NodeProto> nodes;
    private final FoldingRules folding = new FoldingRules(this);

    ShapeInference(OnnxSummary model, Map<String, long[]> inputShapes) {
        this(null, model.nodes(), model.initializers().values(), inputShapes);
    }

    /** A graph seen from {@code outer} (null for the main graph): a body reads the values around it by name. */
    ShapeInference(ShapeInference outer, List<NodeProto> nodes, Collection<Initializer> initializers,
                   Map<String, long[]> inputShapes) {
        this.nodes = nodes;
        if (outer != null) {
            shapes.putAll(outer.shapes);
            ints.putAll(outer.ints);
        }
        initializers.forEach(i -> {
            shapes.put(i.name(), i.dims());
            if (i.ints() != null) {
                ints.put(i.name(), i.ints());
            }
        });
        shapes.putAll(inputShapes);
        for (NodeProto n : topological(nodes)) {
            try {
                infer(n);
            } catch (RuntimeException unsupported) {
                // a malformed or unusual node: its outputs stay unknown
            }
        }
    }

    long[] shape(String name) {
        return name.isEmpty() ? null : shapes.get(name);
    }

    /**
     * The nodes in an order where each comes after the nodes whose outputs it reads, the file's order kept where it
     * already is one. ONNX asks for that order, but some writers append nodes late (the float16 converter puts the
     * input's Cast last, so a file-order pass knew none of the convolutions after it); ONNX Runtime sorts them
     * itself. An input no node of the list writes (a graph input, an initializer, an outer graph's value) is there
     * from the start; nodes left in a cycle follow in file order.
     */
    static List<NodeProto> topological(List<NodeProto> nodes) {
        Map<String, Integer> producer = new HashMap<>();
        for (int i = 0; i < nodes.size(); i++) {
            for (String out : nodes.get(i).getOutputList()) {
                producer.putIfAbsent(out, i);
            }
        }
        int[] waiting = new int[nodes.size()];
        Map<Integer, List<Integer>> readers = new HashMap<>();
        for (int i = 0; i < nodes.size(); i++) {
            Set<Integer> from = new java.util.HashSet<>();
            for (String in : nodes.get(i).getInputList()) {
                Integer p = in.isEmpty() ? null : producer.get(in);
                if (p != null && p != i && from.add(p)) {
                    readers.computeIfAbsent(p, k -> new java.util.ArrayList<>()).add(i);
                }
            }
            waiting[i] = from.size();
        }
        java.util.PriorityQueue<Integer> ready = new java.util.PriorityQueue<>();
        for (int i = 0; i < nodes.size(); i++) {
            if (waiting[i] == 0) {
                ready.add(i);
            }
        }
        List<NodeProto> out = new java.util.ArrayList<>(nodes.size());
        boolean[] done = new boolean[nodes.size()];
        while (!ready.isEmpty()) {
            int i = ready.poll();
            done[i] = true;
            out.add(nodes.get(i));
            for (int r : readers.getOrDefault(i, List.of())) {
                if (--waiting[r] == 0) {
                    ready.add(r);
                }
            }
        }
        for (int i = 0; i < nodes.size(); i++) {
            if (!done[i]) {
                out.add(nodes.get(i));
            }
        }
        return out;
    }

    void put(String name, long[] shape) {
        if (shape != null && !name.isEmpty()) {
            shapes.put(name, shape);
        }
    }

    private void infer(NodeProto n) {
        String op = n.getOpType();
        long[] x = n.getInputCount() > 0 ? shape(n.getInput(0)) : null;
        switch (op) {
            case "Constant" -> constant(n);
            case "If", "Loop", "Scan" -> ControlFlow.infer(this, n);
            case "DynamicQuantizeLinear" -> {
                put(n.getOutput(0), x);
                IntStream.range(1, n.getOutputCount()).forEach(o -> put(n.getOutput(o), new long[0]));
            }
            case "QLinearAdd", "QLinearMul" -> broadcast(n, List.of(n.getInput(0), n.getInput(3)));
            default -> {
                if (SAME_SHAPE.contains(op)) {
                    set(n, x);
                    if (op.equals("Cast") || op.equals("Identity")) {
                        copyInts(n.getInput(0), n.getOutput(0));
                    }
                } else if (BROADCAST.contains(op)) {
                    broadcast(n, n.getInputList());
                    folding.arithmetic(n, op);
                } else {
                    set(n, rule(n, op, x));
                }
            }
        }
    }

    private long[] rule(NodeProto n, String op, long[] x) {
        long[] out = switch (op) {
            case "Conv", "ConvInteger", "MaxPool", "AveragePool", "QLinearAveragePool" ->
                    window(n, x, op, n.getInputCount() > 1 ? shape(n.getInput(1)) : null);
            case "QLinearConv" -> window(n, x, op, shape(n.getInput(3)));
            case "GlobalAveragePool", "GlobalMaxPool" -> globalPool(x);
            case "QLinearGlobalAveragePool" ->
                    attrInt(n, "channels_last", 0) == 1 ? channelsLastPool(x) : globalPool(x);
            case "Gemm" -> gemm(n, x, shape(n.getInput(1)));
            case "QGemm" -> gemm(n, x, shape(n.getInput(3)));
            case "MatMul", "MatMulInteger", "MatMulIntegerToFloat" -> matmul(x, shape(n.getInput(1)));
            case "QLinearMatMul" -> matmul(x, shape(n.getInput(3)));
            case "Flatten" -> flatten(x, (int) attrInt(n, "axis", 1));
            case "Reshape" -> reshape(x, ints.get(n.getInput(1)));
            case "Transpose" -> transpose(x, attrInts(n, "perm"));
            case "Shape" -> folding.shapeOf(n, x);
            case "Gather" -> folding.gather(n, x, shape(n.getInput(1)));
            case "Slice" -> folding.slice(n, x);
            case "Concat" -> folding.concat(n, n.getInputList());
            case "QLinearConcat" -> folding.concat(n, IntStream.range(2, n.getInputCount())
                    .filter(i -> (i - 2) % 3 == 0).mapToObj(n::getInput).toList());
            case "Expand" -> x == null || !ints.containsKey(n.getInput(1)) ? null : Broadcast.shape(x, ints.get(n.getInput(1)));
            case "Unsqueeze" -> folding.unsqueeze(x, folding.axes(n));
            case "Squeeze" -> squeeze(x, folding.axes(n));
            case "ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin" -> folding.reduce(n, x);
            case "ConstantOfShape" -> ints.get(n.getInput(0));
            default -> null;
        };
        return out != null && op.contains("Conv") && !op.contains("Concat") ? convChannels(n, out) : out;
    }

    private void set(NodeProto n, long[] shape) {
        put(n.getOutput(0), shape);
    }

    private void broadcast(NodeProto n, List<String> inputs) {
        long[] out = new long[0];
        for (String in : inputs) {
            long[] s = shape(in);
            if (s == null) {
                return;
            }
            out = Broadcast.shape(out, s);
        }
        set(n, out);
    }

    private void copyInts(String from, String to) {
        if (ints.containsKey(from)) {
            ints.put(to, ints.get(from));
        }
    }

    private void constant(NodeProto n) {
        String out = n.getOutput(0);
        for (OnnxMl.AttributeProto a : n.getAttributeList()) {
            switch (a.getName()) {
                case "value" -> {
                    Initializer t = TensorValues.of(out, a.getT());
                    shapes.put(out, t.dims());
                    if (t.ints() != null) {
                        ints.put(out, t.ints());
                    }
                }
                case "value_ints" -> {
                    shapes.put(out, new long[]{a.getIntsCount()});
                    ints.put(out, a.getIntsList().stream().mapToLong(Long::longValue).toArray());
                }
                case "value_int" -> {
                    shapes.put(out, new long[0]);
                    ints.put(out, new long[]{a.getI()});
                }
                case "value_float" -> shapes.put(out, new long[0]);
                case "value_floats" -> shapes.put(out, new long[]{a.getFloatsCount()});
                default -> {
                    // sparse and string constants feed no operator whose cost we count
                }
            }
        }
    }

    /** The output channels come from W (input 1, or 3 for QLinearConv); without W the shape is not known. */
    private long[] convChannels(NodeProto n, long[] out) {
        long[] w = shape(n.getInput(n.getOpType().equals("QLinearConv") ? 3 : 1));
        if (out[1] == -1) {
            if (w == null) {
                return null;
            }
            out[1] = w[0];
        }
        return out;
    }

    private static long[] channelsLastPool(long[] x) {
        if (x == null) {
            return null;
        }
        long[] out = x.clone();
        for (int i = 1; i < out.length - 1; i++) {
            out[i] = 1;
        }
        return out;
    }
}

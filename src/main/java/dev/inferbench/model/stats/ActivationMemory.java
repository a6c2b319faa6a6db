package dev.inferbench.model.stats;

import ai.onnx.proto.OnnxMl;
import ai.onnx.proto.OnnxMl.NodeProto;
import dev.inferbench.model.OnnxReader;
import dev.inferbench.BenchException;
import dev.inferbench.model.InputShapes;
import dev.inferbench.tensor.TensorSpec;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The memory of a graph's intermediate tensors at one batch (and sequence length), from shape inference: each
 * tensor is element size x elements; walking the nodes in the file's order (ONNX files are topologically sorted,
 * and a sequential executor runs them so), a tensor is live from its producer until its last consumer has run, and
 * a graph output until the end. Graph inputs, initializers and Constant nodes are not activations and are left
 * out. The views ONNX Runtime hands out without a copy (Reshape, Flatten, Squeeze, Unsqueeze, Identity, Dropout)
 * allocate nothing: they keep their input's buffer live. This is the graph as written: an engine that fuses
 * operators (Conv+BatchNorm+ReLU) never materializes some of these tensors, and an allocator adds rounding.
 *
 * @param layers       one per node, in execution order
 * @param peakBytes    the most bytes live at once: while a node runs, its inputs and outputs are all live
 * @param peakIndex    the node at which the peak happens (-1 for a graph without intermediates)
 * @param largestBytes the largest single intermediate tensor
 * @param totalBytes   every intermediate tensor allocated once (the memory without any reuse)
 * @param unknown      outputs whose shape or type could not be inferred (counted as 0 bytes)
 * @param sequence     some input's shape takes {@code seqLen} (a model without one is the same at every seqLen)
 */
public record ActivationMemory(int batch, int seqLen, List<Layer> layers, long peakBytes, int peakIndex,
                               long largestBytes, long totalBytes, int unknown, boolean sequence) {
    private static final Set<String> VIEWS = Set.of("Reshape", "Flatten", "Squeeze", "Unsqueeze", "Identity",
            "Dropout");

    /**
     * One node.
     *
     * @param outputBytes    its outputs' bytes (a view's too)
     * @param allocatedBytes what it allocates: its outputs' bytes, 0 for a view
     * @param liveBytes      bytes live while it runs
     * @param liveAfterBytes bytes live once it has run and the tensors it used for the last time are freed
     */
    public record Layer(int index, String node, String opType, String module, long outputBytes, long allocatedBytes,
                        long liveBytes, long liveAfterBytes) {
    }

    /**
     * One module: what its nodes allocate and the most bytes live while one of them runs.
     *
     * @param peakNode the node of the module at which {@code peakBytes} is live
     */
    public record Module(String module, int nodes, long allocatedBytes, long peakBytes, String peakNode) {
    }

    /** The file's activation memory with its inputs resolved as a benchmark cell resolves them. */
    public static ActivationMemory of(Path file, String model, Map<String, long[]> perSample, int batch, int seqLen)
            throws BenchException {
        OnnxSummary summary = OnnxSummary.read(file);
        InputShapes resolver = new InputShapes(model, perSample, batch, seqLen);
        Map<String, long[]> inputs = new LinkedHashMap<>();
        boolean sequence = false;
        List<TensorSpec> specs = summary.inputs().stream().map(OnnxReader::spec).toList();
        for (OnnxMl.ValueInfoProto in : summary.inputs()) {
            inputs.put(in.getName(), resolver.resolve(OnnxReader.spec(in), specs));
            sequence |= resolver.usesSeqLen(OnnxReader.spec(in));
        }
        ActivationMemory m = of(summary, inputs, batch, seqLen);
        return new ActivationMemory(m.batch, m.seqLen, m.layers, m.peakBytes, m.peakIndex, m.largestBytes,
                m.totalBytes, m.unknown, sequence);
    }

    static ActivationMemory of(OnnxSummary model, Map<String, long[]> inputShapes, int batch, int seqLen) {
        ShapeInference shapes = new ShapeInference(model, inputShapes);
        ElementTypes types = new ElementTypes(model);
        List<NodeProto> nodes = model.nodes();
        Set<String> notActivations = new HashSet<>(model.initializers().keySet());
        model.inputs().forEach(v -> notActivations.add(v.getName()));
        Map<String, String> bufferOf = new HashMap<>();
        Map<String, Long> bytes = new HashMap<>();
        Map<String, Integer> lastUse = new HashMap<>();
        long[] outputBytes = new long[nodes.size()];
        int unknown = 0;
        for (int i = 0; i < nodes.size(); i++) {
            NodeProto n = nodes.get(i);
            for (String in : n.getInputList()) {
                if (bufferOf.containsKey(in)) {
                    lastUse.put(bufferOf.get(in), i);
                }
            }
            for (int o = 0; o < n.getOutputCount(); o++) {
                String out = n.getOutput(o);
                if (out.isEmpty()) {
                    continue;
                }
                long size = bytes(shapes.shape(out), types.of(out));
                unknown += size < 0 ? 1 : 0;
                outputBytes[i] += Math.max(0, size);
                String input = n.getInputCount() > 0 ? n.getInput(0) : "";
                if (n.getOpType().equals("Constant") || VIEWS.contains(n.getOpType()) && notActivations.contains(input)) {
                    notActivations.add(out); // a constant, or a view of an input or a weight
                } else if (VIEWS.contains(n.getOpType()) && o == 0 && bufferOf.containsKey(input)) {
                    bufferOf.put(out, bufferOf.get(input));
                } else {
                    bufferOf.put(out, out);
                    bytes.put(out, Math.max(0, size));
                    lastUse.put(out, i); // freed after its producer when nothing reads it
                }
            }
        }
        model.outputs().forEach(v -> {
            if (bufferOf.containsKey(v.getName())) {
                lastUse.put(bufferOf.get(v.getName()), nodes.size());
            }
        });
        return walk(nodes, bufferOf, bytes, lastUse, outputBytes, unknown, batch, seqLen);
    }

    private static ActivationMemory walk(List<NodeProto> nodes, Map<String, String> bufferOf, Map<String, Long> bytes,
                                         Map<String, Integer> lastUse, long[] outputBytes, int unknown, int batch,
                                         int seqLen) {
        List<Layer> layers = new ArrayList<>();
        long live = 0;
        long peak = 0;
        int peakIndex = -1;
        for (int i = 0; i < nodes.size(); i++) {
            NodeProto n = nodes.get(i);
            long allocated = 0;
            for (String out : n.getOutputList()) {
                if (out.equals(bufferOf.get(out))) {
                    allocated += bytes.get(out);
                }
            }
            live += allocated;
            long during = live;
            if (during > peak) {
                peak = during;
                peakIndex = i;
            }
            Set<String> touched = new LinkedHashSet<>();
            for (String v : n.getInputList()) {
                touched.add(bufferOf.get(v));
            }
            for (String v : n.getOutputList()) {
                touched.add(bufferOf.get(v));
            }
            for (String buffer : touched) {
                if (buffer != null && lastUse.get(buffer) == i) {
                    live -= bytes.get(buffer);
                }
            }
            String name = LayerName.node(n, i);
            layers.add(new Layer(i, name, n.getOpType(), LayerName.module(name), outputBytes[i], allocated, during, live));
        }
        long largest = bytes.values().stream().mapToLong(Long::longValue).max().orElse(0);
        long total = bytes.values().stream().mapToLong(Long::longValue).sum();
        return new ActivationMemory(batch, seqLen, List.copyOf(layers), peak, peakIndex, largest, total, unknown,
                true);
    }

    /** The node at which the peak happens, or null for a graph without intermediates. */
    public Layer peakLayer() {
        return peakIndex < 0 ? null : layers.get(peakIndex);
    }

    /**
     * The most bytes live between two nodes, once each has freed what it used for the last time: what an allocator
     * that is read after each kernel (ONNX Runtime's profile) can see, where {@link #peakBytes} is within a node.
     */
    public long peakBetweenNodesBytes() {
        return layers.stream().mapToLong(Layer::liveAfterBytes).max().orElse(0);
    }

    /** The modules in the order their first node runs. */
    public List<Module> modules() {
        Map<String, List<Layer>> byModule = new LinkedHashMap<>();
        layers.forEach(l -> byModule.computeIfAbsent(l.module(), m -> new ArrayList<>()).add(l));
        List<Module> out = new ArrayList<>();
        byModule.forEach((module, ls) -> {
            Layer top = ls.stream().reduce((a, b) -> b.liveBytes() > a.liveBytes() ? b : a).orElseThrow();
            out.add(new Module(module, ls.size(), ls.stream().mapToLong(Layer::allocatedBytes).sum(), top.liveBytes(),
                    top.node()));
        });
        return out;
    }

    /** Element size x elements; -1 when the shape or the type is unknown. */
    private static long bytes(long[] shape, int dataType) {
        int size = ElementTypes.bytes(dataType);
        if (shape == null || size == 0) {
            return -1;
        }
        long n = size;
        for (long d : shape) {
            if (d < 0) {
                return -1;
            }
            n = Math.multiplyExact(n, d);
        }
        return n;
    }
}

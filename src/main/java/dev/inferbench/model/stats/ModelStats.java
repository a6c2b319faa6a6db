package dev.inferbench.model.stats;

import ai.onnx.proto.OnnxMl;
import dev.inferbench.BenchException;
import dev.inferbench.model.InputShapes;
import dev.inferbench.model.Graph;
import dev.inferbench.model.OnnxReader;
import dev.inferbench.tensor.TensorSpec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a model file costs: size on disk, parameters, MACs per sample at a sequence length, its operators and its
 * signature. Parameters are the trainable count of the zoo graph for zoo models (the published figure) and, for
 * other files, the elements of the tensors the file stores ({@link Parameters}). MACs come from the file itself,
 * read without its weights ({@link MacCounter}); operators are counted in the bodies of If, Loop and Scan too.
 *
 * @param macsPerSample multiply-accumulates of one sample (batch 1)
 * @param uncounted     nodes whose cost could not be counted (shapes or a trip count unknown): then MACs are a
 *                      lower bound
 * @param sequence      some input's shape takes the sequence length (a model without one ignores seqLen)
 */
public record ModelStats(String name, Path file, long bytes, long params, long macsPerSample, int uncounted,
                         Map<String, Integer> operators, List<String> inputs, List<String> outputs, boolean sequence) {

    public static ModelStats of(String name, Path file, Graph zooGraph, Map<String, long[]> perSample, int seqLen)
            throws BenchException {
        OnnxSummary summary = OnnxSummary.read(file);
        Map<String, long[]> inputShapes = new LinkedHashMap<>();
        // the file's own batch where it fixes one, else one sample; a fixed first dimension beside a dynamic batch
        // is no batch (a recurrent state's layers) and divides nothing
        List<OnnxSummary.FixedBatch> fixed = summary.fixedBatches();
        long batch = fixed.isEmpty() ? 1 : fixed.get(0).batch();
        List<String> inputs = new ArrayList<>();
        List<TensorSpec> specs = summary.inputs().stream().map(OnnxReader::spec).toList();
        boolean sequence = false;
        for (OnnxMl.ValueInfoProto in : summary.inputs()) {
            TensorSpec spec = OnnxReader.spec(in);
            sequence |= new InputShapes(name, perSample, 1, seqLen).usesSeqLen(spec);
            inputs.add(spec.toString());
            try {
                inputShapes.put(in.getName(), new InputShapes(name, perSample, (int) batch, seqLen).resolve(spec, specs));
            } catch (BenchException unresolved) {
                // its dependents stay unknown and are reported as uncounted
            }
        }
        MacCounter counter = new MacCounter(new ShapeInference(summary, inputShapes));
        long params = zooGraph != null ? zooGraph.parameterCount() : Parameters.count(summary);
        List<String> outputs = summary.outputs().stream().map(o -> OnnxReader.spec(o).toString()).toList();
        return new ModelStats(name, file, size(file), params, counter.macs() / batch, counter.uncounted(),
                histogram(summary), inputs, outputs, sequence);
    }

    private static Map<String, Integer> histogram(OnnxSummary summary) {
        Map<String, Integer> counts = new TreeMap<>();
        Subgraphs.forEach(summary.nodes(), n -> counts.merge(n.getOpType(), 1, Integer::sum));
        Map<String, Integer> sorted = new LinkedHashMap<>();
        counts.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder())
                .thenComparing(Map.Entry.comparingByKey())).forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return sorted;
    }

    private static long size(Path file) throws BenchException {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new BenchException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }
}

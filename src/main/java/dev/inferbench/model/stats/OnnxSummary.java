package dev.inferbench.model.stats;

import ai.onnx.proto.OnnxMl;
import dev.inferbench.BenchException;
import dev.inferbench.model.OnnxExporter;
import dev.inferbench.model.OnnxReader;
import dev.inferbench.model.OnnxReader.Initializer;
import dev.inferbench.model.InputShapes;
import dev.inferbench.tensor.TensorSpec;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * An ONNX file read without its weights ({@link OnnxReader} at {@link OnnxReader.Depth#GRAPH}): metadata, graph
 * inputs and outputs, nodes, value infos, and each initializer's name, type and shape. Graph inputs that are
 * initializers (older exporters list weights as inputs) are left out of {@link #inputs}.
 */
public record OnnxSummary(Map<String, String> metadata, List<OnnxMl.ValueInfoProto> inputs,
                          List<OnnxMl.ValueInfoProto> outputs, List<OnnxMl.NodeProto> nodes,
                          List<OnnxMl.ValueInfoProto> valueInfo, Map<String, Initializer> initializers) {

    public static OnnxSummary read(Path file) throws BenchException {
        if (!Files.isRegularFile(file)) {
            throw new BenchException("model file not found: " + file + "; expected an .onnx file");
        }
        try (InputStream in = Files.newInputStream(file)) {
            OnnxReader.Contents c = OnnxReader.read(in, OnnxReader.Depth.GRAPH);
            if (c.nodes().isEmpty() || c.inputs().isEmpty() || c.outputs().isEmpty()) {
                throw new BenchException(file + " is not a valid ONNX model (no graph with inputs, nodes and outputs)");
            }
            return new OnnxSummary(c.metadata(), c.inputs(), c.outputs(), c.nodes(), c.valueInfo(), c.initializers());
        } catch (IOException | RuntimeException e) {
            throw new BenchException(file + " is not a valid ONNX model (" + e.getMessage() + ")", e);
        }
    }

    /** The token vocabulary recorded by the zoo generator ({@link OnnxExporter#META_VOCAB}), if any. */
    public OptionalInt vocab() {
        String v = metadata.get(OnnxExporter.META_VOCAB);
        try {
            return v == null ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(v.trim()));
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }

    /** An input whose batch dimension the file fixes: many exports declare {@code [1, 3, 224, 224]}. */
    public record FixedBatch(String input, long batch) {
    }

    /**
     * The inputs whose batch dimension ({@link InputShapes#batchAxes}: the first, one named like a batch, or a
     * recurrent state's one open dimension) is a number, not a symbol, in input order; none where another input's
     * batch is dynamic: the model then takes any batch.
     */
    public List<FixedBatch> fixedBatches() {
        List<FixedBatch> out = new ArrayList<>();
        List<TensorSpec> specs = inputs.stream().map(OnnxReader::spec).toList();
        Map<String, Integer> axes = InputShapes.batchAxes(specs);
        for (TensorSpec spec : specs) {
            if (spec.shape().length == 0) {
                continue;
            }
            long batch = spec.shape()[axes.get(spec.name())];
            if (batch <= 0) {
                return List.of();
            }
            out.add(new FixedBatch(spec.name(), batch));
        }
        return out;
    }
}

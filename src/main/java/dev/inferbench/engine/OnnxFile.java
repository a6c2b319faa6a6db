package dev.inferbench.engine;

import ai.onnx.proto.OnnxMl;
import dev.inferbench.BenchException;
import dev.inferbench.model.OnnxReader;
import dev.inferbench.tensor.TensorSpec;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * What the DJL engines need from an ONNX file without loading it into an engine: the declared inputs and outputs,
 * the metadata, and (on request) the float initializers by name, read by {@link OnnxReader}.
 */
record OnnxFile(ModelSignature signature, Map<String, String> metadata, Map<String, FloatBuffer> weights) {

    static OnnxFile read(Path file, boolean withWeights) throws BenchException {
        OnnxReader.Contents c;
        try (InputStream in = Files.newInputStream(file)) {
            c = OnnxReader.read(in, withWeights ? OnnxReader.Depth.WEIGHTS : OnnxReader.Depth.GRAPH);
        } catch (IOException | RuntimeException e) {
            throw new BenchException("cannot read " + file + " as an ONNX model: " + e.getMessage()
                    + "; expected a valid .onnx file", e);
        }
        Map<String, FloatBuffer> weights = new LinkedHashMap<>();
        c.weights().forEach((name, t) -> weights.put(name, floats(t)));
        List<TensorSpec> in = c.inputs().stream().map(OnnxReader::spec).toList();
        List<TensorSpec> out = c.outputs().stream().map(OnnxReader::spec).toList();
        return new OnnxFile(new ModelSignature(in, out), c.metadata(), weights);
    }

    /**
     * The version of the default operator set the model imports, or empty when the file does not say or cannot be
     * read: it only explains a load failure, so it never adds one.
     */
    static OptionalLong opset(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return OnnxReader.read(in, OnnxReader.Depth.MODEL).opset();
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty(); // unreadable: the caller reports the engine's own error without the opset
        }
    }

    private static FloatBuffer floats(OnnxMl.TensorProto t) {
        if (t.getDataType() != OnnxMl.TensorProto.DataType.FLOAT.getNumber()) {
            return null;
        }
        if (!t.getRawData().isEmpty()) {
            return t.getRawData().asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
        }
        float[] data = new float[t.getFloatDataCount()];
        for (int i = 0; i < data.length; i++) {
            data[i] = t.getFloatData(i);
        }
        return FloatBuffer.wrap(data);
    }
}

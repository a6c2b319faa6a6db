package dev.inferbench.variant;

import ai.onnx.proto.OnnxMl.ModelProto;
import ai.onnx.proto.OnnxMl.TypeProto;
import ai.onnx.proto.OnnxMl.ValueInfoProto;
import dev.inferbench.model.InputShapes;
import dev.inferbench.BenchException;
import dev.inferbench.engine.EngineKind;
import dev.inferbench.engine.EngineSettings;
import dev.inferbench.engine.Device;
import dev.inferbench.engine.InferenceEngine;
import dev.inferbench.engine.Outputs;
import dev.inferbench.engine.PreparedInput;
import dev.inferbench.input.SyntheticInputs;
import dev.inferbench.tensor.HostTensor;
import dev.inferbench.tensor.TensorSpec;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Activation ranges for int8 quantization: the float32 model runs once on ONNX Runtime with the activations to be
 * quantized exposed as extra outputs, on a batch of seeded synthetic inputs; each range is the observed min and max.
 * One intra-op thread and basic graph optimization keep the reductions, and so the file, the same from run to run.
 */
final class Int8Ranges {
    /** Samples per calibration batch, for models whose batch dimension is dynamic. */
    static final int SAMPLES = 4;

    private Int8Ranges() {
    }

    static Map<String, float[]> ranges(ModelProto model, List<String> activations, String name,
                                       Map<String, long[]> perSample, long seed) throws BenchException {
        ModelProto.Builder exposed = model.toBuilder();
        var graph = exposed.getGraphBuilder();
        var existing = graph.getOutputList().stream().map(ValueInfoProto::getName).toList();
        for (String a : activations) {
            if (!existing.contains(a)) {
                graph.addOutput(ValueInfoProto.newBuilder().setName(a).setType(TypeProto.newBuilder()
                        .setTensorType(TypeProto.Tensor.newBuilder().setElemType(TensorData.FLOAT))));
            }
        }
        Path tmp = null;
        try {
            tmp = Files.createTempFile("inferbench-calibration", ".onnx");
            try (OutputStream out = Files.newOutputStream(tmp)) {
                exposed.build().writeTo(out);
            }
            EngineSettings settings = new EngineSettings(1, 1, EngineSettings.GraphOptimization.BASIC, perSample);
            try (InferenceEngine engine = EngineKind.ORT.open(tmp, Device.parse("cpu"), settings)) {
                List<TensorSpec> inputs = engine.signature().inputs();
                int batch = inputs.get(0).shape().length > 0 && inputs.get(0).shape()[0] > 0
                        ? (int) inputs.get(0).shape()[0] : SAMPLES;
                List<HostTensor> data = SyntheticInputs.create(name, inputs, perSample, batch, InputShapes.DEFAULT_SEQ_LEN, seed);
                List<TensorSpec> outputs = engine.signature().outputs();
                Map<String, float[]> ranges = new LinkedHashMap<>();
                try (PreparedInput prepared = engine.prepare(data); Outputs result = engine.run(prepared)) {
                    for (int i = 0; i < outputs.size(); i++) {
                        if (activations.contains(outputs.get(i).name())) {
                            ranges.put(outputs.get(i).name(), minMax(result.floats(i)));
                        }
                    }
                }
                return ranges;
            }
        } catch (IOException e) {
            throw new BenchException("cannot calibrate the int8 variant of '" + name + "': " + e, e);
        } finally {
            deleteQuietly(tmp);
        }
    }

    private static float[] minMax(float[] values) {
        float lo = Float.POSITIVE_INFINITY;
        float hi = Float.NEGATIVE_INFINITY;
        for (float v : values) {
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        return values.length == 0 ? new float[]{0, 0} : new float[]{lo, hi};
    }

    private static void deleteQuietly(Path tmp) {
        if (tmp != null) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // a temp file left behind is harmless
            }
        }
    }
}

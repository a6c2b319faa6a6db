package dev.inferbench.quality;

import dev.inferbench.BenchException;
import dev.inferbench.engine.Device;
import dev.inferbench.engine.EngineKind;
import dev.inferbench.engine.EngineSettings;
import dev.inferbench.engine.InferenceEngine;
import dev.inferbench.engine.Outputs;
import dev.inferbench.engine.PreparedInput;
import dev.inferbench.input.InputSpec;
import dev.inferbench.input.SyntheticInputs;
import dev.inferbench.tensor.HostTensor;
import dev.inferbench.tensor.TensorSpec;

import java.util.List;

/**
 * Runs a loaded variant and the fp32 reference (ONNX Runtime on the CPU) on the same seeded batch and compares
 * output 0. The batch is {@value #SAMPLES} samples where the model's batch is dynamic, so that top-1 agreement is a
 * share of several samples even for a batch-1 cell; otherwise the file's fixed batch.
 */
public final class FidelityProbe {
    public static final int SAMPLES = 16;

    private FidelityProbe() {
    }

    /**
     * @param reference the fp32 inputs of the cell: its model's own file, read by ONNX Runtime on the CPU; the batch
     *                  is the variant's fixed batch, else {@link #SAMPLES}
     */
    public static Fidelity measure(InferenceEngine variant, InputSpec reference) throws BenchException {
        List<TensorSpec> specs = variant.signature().inputs();
        int batch = batchOf(specs);
        String model = reference.model();
        List<HostTensor> inputs = SyntheticInputs.forModel(reference.withBatchSize(batch), specs);
        float[] got = output0(variant, inputs);
        EngineSettings settings = new EngineSettings(0, 0, EngineSettings.GraphOptimization.ALL, reference.perSample());
        try (InferenceEngine ref = EngineKind.ORT.open(reference.file(), Device.CPU, settings)) {
            float[] expected = output0(ref, inputs);
            if (expected.length != got.length) {
                throw new BenchException("model '" + model + "' output 0 has " + got.length + " values; its fp32"
                        + " reference has " + expected.length + "; expected the same output shape");
            }
            return Fidelity.of(expected, got, batch);
        }
    }

    static int batchOf(List<TensorSpec> specs) {
        long first = specs.isEmpty() || specs.get(0).shape().length == 0 ? -1 : specs.get(0).shape()[0];
        return first > 0 ? (int) first : SAMPLES;
    }

    public static float[] output0(InferenceEngine engine, List<HostTensor> inputs) throws BenchException {
        try (PreparedInput prepared = engine.prepare(inputs); Outputs out = engine.run(prepared)) {
            return out.floats(0);
        }
    }
}

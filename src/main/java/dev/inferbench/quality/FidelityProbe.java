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

import java.util.Arrays;
import java.util.List;

/**
 * Runs a loaded variant and the fp32 reference (ONNX Runtime on the CPU) on the same seeded samples and compares
 * output 0 over at least {@value #SAMPLES} samples, whatever the cell's batch: top-1 agreement of one sample is 0 or
 * 100 %, and of a handful says little. The samples go in batches of the cell's own size (the file's fixed batch where
 * it has one), each batch from its own seed, so the probe never needs more memory than the cell's own calls: batches
 * of 16 on a batch-1 resnet50 cell of djl-pytorch raised the fork's peak resident set from 0.8 to 3.5 GB, and glibc
 * kept 1.2 GB of it for the rest of the fork, in every figure of mem.rss.
 */
public final class FidelityProbe {
    public static final int SAMPLES = 64;

    private FidelityProbe() {
    }

    /**
     * @param reference the fp32 inputs of the cell: its model's own file, read by ONNX Runtime on the CPU; its seed
     *                  starts the batches' seeds
     */
    public static Fidelity measure(InferenceEngine variant, InputSpec reference) throws BenchException {
        List<TensorSpec> specs = variant.signature().inputs();
        int batch = batchOf(specs, reference.batchSize());
        int batches = (SAMPLES + batch - 1) / batch;
        String model = reference.model();
        EngineSettings settings = new EngineSettings(0, 0, EngineSettings.GraphOptimization.ALL, reference.perSample());
        float[] got = null;
        float[] expected = null;
        try (InferenceEngine ref = EngineKind.ORT.open(reference.file(), Device.CPU, settings)) {
            for (int b = 0; b < batches; b++) {
                InputSpec spec = reference.withBatchSize(batch).withSeed(reference.seed() + b);
                List<HostTensor> inputs = SyntheticInputs.forModel(spec, specs);
                float[] g = output0(variant, inputs);
                float[] e = output0(ref, inputs);
                if (e.length != g.length) {
                    throw new BenchException("model '" + model + "' output 0 has " + g.length + " values; its fp32"
                            + " reference has " + e.length + "; expected the same output shape");
                }
                got = concat(got, g);
                expected = concat(expected, e);
            }
        }
        return Fidelity.of(expected, got, batch * batches);
    }

    private static float[] concat(float[] a, float[] b) {
        if (a == null) {
            return b;
        }
        float[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    /** The file's fixed batch, or the cell's own where the file's batch is dynamic. */
    static int batchOf(List<TensorSpec> specs, int cellBatch) {
        long first = specs.isEmpty() || specs.get(0).shape().length == 0 ? -1 : specs.get(0).shape()[0];
        return first > 0 ? (int) first : Math.max(1, cellBatch);
    }

    public static float[] output0(InferenceEngine engine, List<HostTensor> inputs) throws BenchException {
        try (PreparedInput prepared = engine.prepare(inputs); Outputs out = engine.run(prepared)) {
            return out.floats(0);
        }
    }
}

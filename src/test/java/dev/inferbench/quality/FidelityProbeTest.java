package dev.inferbench.quality;

import dev.inferbench.BenchException;
import dev.inferbench.engine.Device;
import dev.inferbench.engine.EngineKind;
import dev.inferbench.engine.EngineSettings;
import dev.inferbench.engine.InferenceEngine;
import dev.inferbench.engine.ModelSignature;
import dev.inferbench.engine.Outputs;
import dev.inferbench.engine.PreparedInput;
import dev.inferbench.input.InputSpec;
import dev.inferbench.model.Zoo;
import dev.inferbench.model.ZooGenerator;
import dev.inferbench.tensor.HostTensor;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The probe runs the cell's engine at the cell's own batch: batches of 16 on a batch-1 cell of a large model made the
 * probe, not the cell, set the fork's memory figures (a resnet50 djl-pytorch fork's peak 3.5 GB, 0.8 GB without the
 * probe).
 */
class FidelityProbeTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(ints = {1, 8})
    void theProbeRunsTheCellsEngineAtTheCellsOwnBatch(int cellBatch) throws Exception {
        Path file = dir.resolve("mlp-tiny.onnx");
        new ZooGenerator(7, new PrintStream(OutputStream.nullOutputStream())).generate(Zoo.MLP_TINY.architecture(), file);
        try (InferenceEngine ort = EngineKind.ORT.open(file, Device.CPU, EngineSettings.DEFAULTS)) {
            Batches seen = new Batches(ort);
            Fidelity f = FidelityProbe.measure(seen, new InputSpec("mlp-tiny", file, Map.of(), cellBatch, 128, 42));

            assertThat(seen.batches).as("batch of every call the probe made on the cell's engine")
                    .isNotEmpty().containsOnly((long) cellBatch);
            assertThat(f.samples()).isEqualTo(64);
            assertThat(f.top1Agreement()).as("the same file on the same engine agrees with itself").isEqualTo(100);
        }
    }

    /** The engine under test, recording the batch of each prepared input. */
    private static final class Batches implements InferenceEngine {
        private final InferenceEngine engine;
        private final List<Long> batches = new ArrayList<>();

        Batches(InferenceEngine engine) {
            this.engine = engine;
        }

        @Override
        public ModelSignature signature() {
            return engine.signature();
        }

        @Override
        public PreparedInput prepare(List<HostTensor> inputs) throws BenchException {
            batches.add(inputs.get(0).shape()[0]);
            return engine.prepare(inputs);
        }

        @Override
        public Outputs run(PreparedInput input) throws BenchException {
            return engine.run(input);
        }

        @Override
        public void close() {
            engine.close();
        }
    }
}

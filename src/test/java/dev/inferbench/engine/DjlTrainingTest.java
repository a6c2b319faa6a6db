package dev.inferbench.engine;

import dev.inferbench.BenchException;
import dev.inferbench.input.SyntheticInputs;
import dev.inferbench.model.Architecture;
import dev.inferbench.model.Bert;
import dev.inferbench.model.Mlp;
import dev.inferbench.model.ResNet;
import dev.inferbench.model.OnnxExporter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.nio.file.Files;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * Training steps on djl-pytorch: gradients for every trained weight, an update that changes the model, and memory
 * figures that agree with what can be counted independently (the arrays Java holds, the weights' sizes).
 */
class DjlTrainingTest {
    private static final double MIB = 1 << 20;

    @TempDir
    static Path dir;

    private static Trainer trainer(Architecture arch, int batch) throws Exception {
        Path file = dir.resolve(arch.name() + ".onnx");
        try (OutputStream out = Files.newOutputStream(file)) {
            new OnnxExporter(7).write(arch.build(), out);
        }
        Trainer t = EngineKind.DJL_PYTORCH.openTrainer(file, Device.CPU, EngineSettings.threads(1));
        t.prepare(SyntheticInputs.create("m", t.signature().inputs(), Map.of(), batch, 16, 99));
        return t;
    }

    /** mlp-tiny: 64 → 32 → 10 (2,410 weights); every figure can be counted by hand. */
    @Test
    void mlpTinyMemoryIsWhatItsTensorsHold() throws Exception {
        int batch = 64;
        try (Trainer t = trainer(Mlp.tiny(), batch)) {
            TrainingMemory m = t.measureMemory();
            System.out.println("mlp-tiny b64 " + m);
            // the weights and their gradients: 2,410 floats each
            assertThat(m.weights()).isCloseTo(2410 * 4 / MIB, within(1e-9));
            assertThat(m.gradients()).isCloseTo(m.weights(), within(1e-9));
            // libtorch's accounting of the forward and the arrays DJL holds after it agree: no views here (a reshape's
            // array shares its input's memory, and the arrays' sizes count it twice)
            assertThat(m.inference()).isCloseTo(m.inferenceArrays(), within(16 * 1024 / MIB));
            assertThat(m.forward()).isCloseTo(m.forwardArrays(), within(16 * 1024 / MIB));
            // fc1's [64, 32] floats, its ReLU, fc2's [64, 10] and the softmax: the forward holds at least 2 × 8 KiB
            assertThat(m.inference()).isGreaterThan(2 * batch * 32 * 4 / MIB);
            // with gradients, the forward adds the loss's arrays; the backward allocates at least the gradients
            assertThat(m.forward()).isGreaterThanOrEqualTo(m.inference());
            assertThat(m.backward()).isGreaterThanOrEqualTo(m.gradients());
        }
    }

    /** resnet-tiny has batch normalisation, trained from the batch: its running statistics are not trained. */
    @Test
    void stepsChangeTheModelAndKeepNoArrays() throws Exception {
        try (Trainer t = trainer(ResNet.tiny(), 2)) {
            DjlTrainer djl = (DjlTrainer) t;
            TrainingMemory first = t.measureMemory();
            System.out.println("resnet-tiny b2 " + first);
            assertThat(first.gradients()).isEqualTo(first.weights());
            assertThat(first.forward()).isCloseTo(first.forwardArrays(), within(Math.max(0.05 * first.forward(), 0.05)));
            float[] before = djl.weightValues();
            int arrays = djl.managedArrays();
            for (int i = 0; i < 5; i++) {
                t.step();
            }
            assertThat(djl.managedArrays()).isEqualTo(arrays); // a step leaves nothing behind
            assertThat(djl.weightValues()).hasSameSizeAs(before).isNotEqualTo(before); // SGD moved the weights
        }
    }

    @Test
    void bertTinyTrains() throws Exception {
        try (Trainer t = trainer(Bert.tiny(), 2)) {
            TrainingMemory m = t.measureMemory();
            System.out.println("bert-tiny b2 " + m);
            assertThat(m.gradients()).isPositive().isEqualTo(m.weights());
            assertThat(m.step()).isGreaterThan(m.inference());
            // reshapes and transposes are views: the arrays' sizes count their memory again, libtorch does not
            assertThat(m.inferenceArrays()).isGreaterThan(m.inference());
            t.step();
        }
    }

    @Test
    void onlyDjlPyTorchTrains() {
        assertThatThrownBy(() -> EngineKind.ORT.openTrainer(Path.of("m.onnx"), Device.CPU, EngineSettings.threads(1)))
                .isInstanceOf(BenchException.class)
                .hasMessage("engine 'ort' cannot run training steps (ONNX Runtime's inference sessions compute no"
                        + " gradients); expected -p engine=djl-pytorch for TrainingBenchmark");
    }
}

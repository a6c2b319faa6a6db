package dev.inferbench.engine;

import dev.inferbench.tensor.TensorSpec;
import dev.inferbench.BenchException;
import dev.inferbench.input.SyntheticInputs;
import dev.inferbench.model.Architecture;
import dev.inferbench.model.Mlp;
import dev.inferbench.model.OnnxExporter;
import dev.inferbench.model.ResNet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class OrtEngineTest {
    @TempDir
    Path dir;

    private Path write(Architecture arch) throws IOException {
        Path file = dir.resolve(arch.name() + ".onnx");
        try (OutputStream out = Files.newOutputStream(file)) {
            new OnnxExporter(5).write(arch.build(), out);
        }
        return file;
    }

    private float[] run(Path model, int batch, long seed, long[] expectedShape) throws BenchException {
        try (InferenceEngine engine = EngineKind.ORT.open(model, Device.CPU, 1);
             PreparedInput in = engine.prepare(SyntheticInputs.create("m", engine.signature().inputs(), Map.of(),
                     batch, 128, seed));
             Outputs out = engine.run(in)) {
            assertThat(out.count()).isEqualTo(1);
            assertThat(out.shape(0)).containsExactly(expectedShape);
            return out.floats(0);
        }
    }

    @Test
    void signatureShowsDynamicBatch() throws Exception {
        try (InferenceEngine engine = EngineKind.ORT.open(write(ResNet.tiny()), Device.CPU, 0)) {
            TensorSpec input = engine.signature().inputs().get(0);
            assertThat(input.name()).isEqualTo("input");
            assertThat(input.type()).isEqualTo(TensorSpec.DType.FLOAT32);
            assertThat(input.shape()).containsExactly(-1, 3, 32, 32);
            assertThat(engine.signature().outputs().get(0).shape()).containsExactly(-1, 10);
        }
    }

    @Test
    void softmaxRowsSumToOne() throws Exception {
        for (Architecture arch : new Architecture[]{Mlp.tiny(), ResNet.tiny()}) {
            float[] probs = run(write(arch), 3, 11, new long[]{3, 10});
            for (int row = 0; row < 3; row++) {
                double sum = 0;
                for (int c = 0; c < 10; c++) {
                    assertThat(probs[row * 10 + c]).isBetween(0f, 1f);
                    sum += probs[row * 10 + c];
                }
                assertThat(sum).as(arch.name() + " row " + row).isCloseTo(1.0, within(1e-5));
            }
        }
    }

    @Test
    void sameSeedSameOutputsOtherSeedOtherOutputs() throws Exception {
        Path model = write(ResNet.tiny());
        float[] a = run(model, 2, 1, new long[]{2, 10});
        assertThat(run(model, 2, 1, new long[]{2, 10})).containsExactly(a);
        assertThat(run(model, 2, 2, new long[]{2, 10})).isNotEqualTo(a);
    }

    @Test
    void missingFileIsOneClearError() {
        assertThatThrownBy(() -> EngineKind.ORT.open(dir.resolve("nope.onnx"), Device.CPU, 0))
                .isInstanceOf(BenchException.class).hasMessageStartingWith("model file not found");
    }

    @Test
    void corruptFileIsOneClearError() throws IOException {
        Path bad = dir.resolve("bad.onnx");
        Files.write(bad, new byte[]{1, 2, 3, 4, 5, 6, 7, 8});
        assertThatThrownBy(() -> EngineKind.ORT.open(bad, Device.CPU, 0))
                .isInstanceOf(BenchException.class)
                .hasMessageContaining("cannot load").hasMessageContaining("expected a valid ONNX model")
                .hasCauseInstanceOf(ai.onnxruntime.OrtException.class)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void cudaOnTheCpuRuntimeIsRefusedWithTheChoices() throws Exception {
        Path model = write(Mlp.tiny());
        assertThatThrownBy(() -> EngineKind.ORT.open(model, Device.parse("cuda"), 0))
                .isInstanceOf(BenchException.class)
                .hasMessageContaining("device 'cuda:0' is not available to engine 'ort'")
                .hasMessageEndingWith("runs on: cpu");
    }

    @Test
    void unknownNamesListTheChoices() {
        assertThatThrownBy(() -> EngineKind.parse("onnx")).hasMessage("unknown engine 'onnx'; expected one of: ort, djl-ort, djl-pytorch");
        assertThatThrownBy(() -> Device.parse("tpu")).hasMessage("unknown device 'tpu'; expected one of: cpu, cuda, cuda:N");
        assertThatThrownBy(() -> Device.parse("cuda:x")).hasMessageContaining("unknown device 'cuda:x'");
    }

    @Test
    void closeIsIdempotent() throws Exception {
        InferenceEngine engine = EngineKind.ORT.open(write(Mlp.tiny()), Device.CPU, 0);
        engine.close();
        engine.close();
        assertThatThrownBy(() -> engine.prepare(java.util.List.of())).isInstanceOf(IllegalStateException.class);
    }

    /** ORT's load errors start with a long C++ signature; the cause at the end must survive the shortening. */
    @org.junit.jupiter.api.Test
    void longOrtMessagesKeepTheirCause() {
        String message = "Load model failed:/onnxruntime_src/graph.cc:1421 " + "onnxruntime::Graph::Graph(x) ".repeat(40)
                + "[ONNXRuntimeError] : 1 : FAIL : Tensor element type mismatch. 10 != 1\nsecond line";
        String line = OrtEngine.firstLine(message);
        org.assertj.core.api.Assertions.assertThat(line).startsWith("Load model failed:")
                .endsWith("Tensor element type mismatch. 10 != 1").hasSizeLessThan(620).doesNotContain("second line");
    }
}

package dev.inferbench.engine;

import java.nio.FloatBuffer;
import dev.inferbench.input.SyntheticInputs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DjlTorchScriptTest {
    @TempDir
    Path dir;

    private static EngineSettings inputs(Map<String, long[]> declared) {
        return new EngineSettings(1, 0, EngineSettings.GraphOptimization.ALL, declared);
    }

    @Test
    void runsATorchScriptFileWithTheDeclaredInputs() throws Exception {
        Path pt = TorchScriptFixture.reluModule(dir.resolve("relu.pt"));
        try (InferenceEngine engine = EngineKind.DJL_PYTORCH.open(pt, Device.CPU, inputs(Map.of("x", new long[]{6})))) {
            assertThat(engine.signature().inputs()).hasSize(1);
            assertThat(engine.signature().inputs().get(0).shape()).containsExactly(-1, 6);
            var batch = SyntheticInputs.create("relu", engine.signature().inputs(), Map.of(), 2, 128, 3);
            try (PreparedInput in = engine.prepare(batch);
                 Outputs out = engine.run(in)) {
                assertThat(out.shape(0)).containsExactly(2, 6);
                float[] y = out.floats(0);
                FloatBuffer x = (FloatBuffer) batch.get(0).data();
                for (int i = 0; i < y.length; i++) {
                    assertThat(y[i]).isEqualTo(Math.max(0f, x.get(i)));
                }
            }
        }
    }

    @Test
    void unexpectedInputsFailWithOneLineNamingEngineFileAndInputs() throws Exception {
        Path pt = TorchScriptFixture.reluModule(dir.resolve("relu.pt"));
        Map<String, long[]> two = new LinkedHashMap<>();
        two.put("a", new long[]{4});
        two.put("b", new long[]{4});
        try (InferenceEngine engine = EngineKind.DJL_PYTORCH.open(pt, Device.CPU, inputs(two));
             PreparedInput in = engine.prepare(SyntheticInputs.create("relu", engine.signature().inputs(), Map.of(), 1, 128, 3))) {
            assertThatThrownBy(() -> engine.run(in))
                    .hasMessageStartingWith("engine 'djl-pytorch' failed to run " + pt + " on inputs [a:float32(1, 4),"
                            + " b:float32(1, 4)]: ")
                    .hasMessageEndingWith("; expected inputs matching the model's forward()")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        }
    }
}

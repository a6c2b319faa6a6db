package dev.inferbench.model;

import org.assertj.core.data.Offset;
import dev.inferbench.BenchException;
import dev.inferbench.engine.Device;
import dev.inferbench.engine.EngineKind;
import dev.inferbench.engine.InferenceEngine;
import dev.inferbench.engine.Outputs;
import dev.inferbench.engine.PreparedInput;
import dev.inferbench.input.SyntheticInputs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ZooGeneratorTest {
    private final ByteArrayOutputStream progress = new ByteArrayOutputStream();
    private final ZooGenerator generator = new ZooGenerator(1, new PrintStream(progress, true));

    @Test
    void resnet50IsWrittenReportedAndRunsInOrt(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("models/resnet50.onnx");
        ZooGenerator.Generated g = generator.generate(ResNet.resnet50(), file);

        assertThat(g.parameters()).isEqualTo(25_557_032L);
        assertThat(g.bytes()).isEqualTo(Files.size(file)).isGreaterThan(4 * 25_557_032L);
        assertThat(progress.toString()).contains("generated resnet50: 25,557,032 parameters").contains(" s");
        try (InferenceEngine engine = EngineKind.ORT.open(file, Device.CPU, 0);
             PreparedInput in = engine.prepare(SyntheticInputs.create("resnet50", engine.signature().inputs(),
                     Map.of(), 1, 128, 3));
             Outputs out = engine.run(in)) {
            assertThat(out.shape(0)).containsExactly(1, 1000);
            double sum = 0;
            for (float v : out.floats(0)) {
                assertThat(v).isBetween(0f, 1f);
                sum += v;
            }
            assertThat(sum).isCloseTo(1.0, Offset.offset(1e-4));
        }
    }

    @Test
    void failedGenerationLeavesNoFile(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("broken.onnx");
        Architecture broken = new Architecture() {
            @Override
            public String name() {
                return "broken";
            }

            @Override
            public Graph build() {
                throw new IllegalStateException("boom");
            }
        };
        assertThatThrownBy(() -> generator.generate(broken, file))
                .isInstanceOf(BenchException.class).hasMessageContaining("broken").hasMessageContaining("boom");
        try (var files = Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void regenerationReplacesTheFileAtomically(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("mlp.onnx");
        Files.writeString(file, "stale");
        generator.generate(Mlp.tiny(), file);
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        new OnnxExporter(1).write(Mlp.tiny().build(), expected);
        assertThat(Files.readAllBytes(file)).isEqualTo(expected.toByteArray());
        try (var files = Files.list(dir)) {
            assertThat(files).containsExactly(file);
        }
    }
}

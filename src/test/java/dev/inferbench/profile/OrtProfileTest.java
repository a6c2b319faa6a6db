package dev.inferbench.profile;

import dev.inferbench.BenchException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** On a profile ONNX Runtime 1.29 wrote for a tiny ResNet (1 warmup call, then 2 measured calls, batch 1). */
class OrtProfileTest {
    static final Path B1 = Path.of("src/test/resources/profile/ort-profile-resnet-tiny-b1.json");

    @TempDir
    Path tmp;

    @Test
    void readsKernelsAndModelRuns() throws Exception {
        OrtProfile all = OrtProfile.read(B1);
        assertThat(all.modelRuns()).extracting(OrtProfile.Run::micros).containsExactly(11768L, 364L, 360L);
        assertThat(all.kernels()).hasSize(33);
        OrtProfile measured = all.lastRuns(2);
        assertThat(measured.kernels()).hasSize(22);
        assertThat(measured.kernels().get(0)).satisfies(k -> {
            assertThat(k.opType()).isEqualTo("Conv");
            assertThat(k.node()).isEqualTo("relu.out_0_nchwc");
        });
    }

    @Test
    void collapsedStacksMatchTheRecordedGolden() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        OpTable.writeCollapsed(OrtProfile.read(B1).lastRuns(2), new PrintStream(out, true, StandardCharsets.UTF_8));
        assertThat(out.toString(StandardCharsets.UTF_8))
                .isEqualTo(Files.readString(Path.of("src/test/resources/profile/ort-profile-resnet-tiny-b1.collapsed")));
    }

    @Test
    void topOperatorsAndHarnessOverhead() throws Exception {
        OpTable table = OpTable.of(OrtProfile.read(B1).lastRuns(2), new long[]{400_000, 380_000});
        assertThat(table.ops()).first().satisfies(op -> {
            assertThat(op.opType()).isEqualTo("Conv");
            assertThat(op.totalMs()).isCloseTo(0.577, within(1e-9));
            assertThat(op.share()).isCloseTo(577.0 / 621, within(1e-9));
            assertThat(op.kernels()).isEqualTo(12);
        });
        assertThat(table.ops().stream().mapToDouble(OpTable.Op::share).sum()).isCloseTo(1.0, within(1e-9));
        assertThat(table.modelRunMs()).isCloseTo(0.362, within(1e-9));
        assertThat(table.harnessOverhead()).isCloseTo(0.390 / 0.362 - 1, within(1e-9));
        ByteArrayOutputStream txt = new ByteArrayOutputStream();
        table.printTable(new PrintStream(txt, true, StandardCharsets.UTF_8), 3);
        assertThat(txt.toString(StandardCharsets.UTF_8).lines()).hasSize(5)
                .last().asString().startsWith("harness overhead: 0.390 ms per call from Java vs 0.362 ms ORT model_run over 2 runs: +7.73%");
        ByteArrayOutputStream json = new ByteArrayOutputStream();
        table.writeJson(json);
        assertThat(json.toString(StandardCharsets.UTF_8)).contains("\"opType\" : \"Conv\"").contains("\"harnessOverhead\"");
    }

    @Test
    void notAProfileIsOneLine() {
        assertThatThrownBy(() -> OrtProfile.read(new ByteArrayInputStream("{\"a\":1}".getBytes()), "x.json"))
                .isInstanceOf(BenchException.class).hasMessageContaining("x.json is not a JSON array");
        assertThatThrownBy(() -> OrtProfile.read(tmp.resolve("none.json")))
                .isInstanceOf(BenchException.class).hasMessageContaining("cannot read ORT profile");
    }
}

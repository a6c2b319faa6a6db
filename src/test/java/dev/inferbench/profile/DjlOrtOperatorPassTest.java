package dev.inferbench.profile;

import dev.inferbench.cell.Cell;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.model.OnnxExporter;
import dev.inferbench.model.ResNet;
import dev.inferbench.prepare.MatrixCheck;
import dev.inferbench.results.Fingerprint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code djl-ort} cell gets an operator pass as an {@code ort} cell does: the model through DJL's Predictor with
 * ORT's profiling on, its operators by layer, after an {@code ort} cell's pass in the same JVM. In one JVM DJL's
 * engine must make ONNX Runtime's environment, not find it made: the launcher's matrix check starts it before its
 * environment record asks ORT its version (a real comparison's passes all failed on that until it did).
 */
class DjlOrtOperatorPassTest {

    @Test
    void aDjlOrtCellIsProfiledThroughDjlInALauncherThatAlsoProfilesOrt(@TempDir Path dir) throws Exception {
        Path model = dir.resolve("r.onnx");
        try (OutputStream out = Files.newOutputStream(model)) {
            new OnnxExporter(7).write(ResNet.tiny().build(), out);
        }
        BenchConfig config = BenchConfig.parse("model.r.file=" + model + "\n");
        Cell ort = new Cell("dev.inferbench.bench.InferenceBenchmark.infer", "sample",
                Map.of("model", "r", "engine", "ort", "batchSize", "1", "threads", "1"));
        Cell djl = new Cell("dev.inferbench.bench.InferenceBenchmark.infer", "sample",
                Map.of("model", "r", "engine", "djl-ort", "batchSize", "1", "threads", "1"));

        // as in a launcher: the matrix is checked, then the run's environment record asks ORT its version, which
        // makes ONNX Runtime's environment if nothing has; DJL's engine, started by the check, made it first
        MatrixCheck.prepare(List.of(ort, djl), config, new PrintStream(OutputStream.nullOutputStream()));
        Fingerprint.write(Files.createDirectories(dir.resolve("run")), Map.of());
        Path pass = dir.resolve("where").resolve("pair-1");
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        OperatorPass.run(List.of(ort, djl), config, pass, new PrintStream(printed, true));

        assertThat(printed.toString()).as(printed.toString()).doesNotContain("none for");
        OperatorPass.Profiled djlPass = OperatorPass.read(pass.resolve(djl.id() + OperatorPass.SUFFIX));
        OperatorPass.Profiled ortPass = OperatorPass.read(pass.resolve(ort.id() + OperatorPass.SUFFIX));
        assertThat(djlPass.params()).containsEntry("engine", "djl-ort");
        assertThat(djlPass.calls()).isBetween(OperatorPass.MIN_CALLS, OperatorPass.MAX_CALLS);
        assertThat(djlPass.layers().kernelMs()).as("ORT's operators timed inside DJL's session")
                .isPositive().isLessThan(djlPass.callMs());
        assertThat(djlPass.layers().layers()).isNotEmpty();
        assertThat(ortPass.layers().kernelMs()).isPositive();
    }
}

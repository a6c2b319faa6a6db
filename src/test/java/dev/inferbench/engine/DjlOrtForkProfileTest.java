package dev.inferbench.engine;

import ai.djl.nn.Blocks;
import dev.inferbench.BenchException;
import dev.inferbench.input.SyntheticInputs;
import dev.inferbench.model.OnnxExporter;
import dev.inferbench.model.ResNet;
import dev.inferbench.profile.OrtProfile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code --flame-events cpu,ops} on {@code djl-ort}: a fork asked for ORT's profile (the system property the launcher
 * sets) gets it from DJL's own {@code profilerOutput} option, and records the same {@code session-N.properties} as
 * {@code ort} (the profile's file and its start on the epoch clock), which the one join reads.
 */
class DjlOrtForkProfileTest {
    @TempDir
    Path dir;

    @Test
    void aDjlOrtForkRecordsOrtsProfileAndItsStartLikeOrt() throws Exception {
        Path model = dir.resolve("resnet-tiny.onnx");
        try (OutputStream out = Files.newOutputStream(model)) {
            new OnnxExporter(7).write(ResNet.tiny().build(), out);
        }
        Path ort = dir.resolve("ort");
        long before = ForkOrtProfile.wallNanos();
        System.setProperty(ForkOrtProfile.PROPERTY, ort.toString());
        try (InferenceEngine engine = EngineKind.DJL_ORT.open(model, Device.CPU, 1);
             PreparedInput in = engine.prepare(SyntheticInputs.create("m", engine.signature().inputs(), Map.of(),
                     1, 16, 99))) {
            for (int i = 0; i < 5; i++) {
                engine.run(in).close();
            }
        } finally {
            System.clearProperty(ForkOrtProfile.PROPERTY);
        }
        long after = ForkOrtProfile.wallNanos();
        Path record;
        try (var s = Files.list(ort)) {
            record = s.filter(p -> p.toString().endsWith(".properties")).findFirst().orElseThrow();
        }
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(record)) {
            p.load(in);
        }
        long start = Long.parseLong(p.getProperty(ForkOrtProfile.START_NS));
        assertThat(start).as("ORT's profiler started while DJL created the session, on the epoch clock")
                .isBetween(Long.parseLong(p.getProperty(ForkOrtProfile.OPENING_NS)),
                        Long.parseLong(p.getProperty(ForkOrtProfile.OPENED_NS)))
                .isBetween(before, after);
        OrtProfile profile = OrtProfile.read(ort.resolve(p.getProperty(ForkOrtProfile.FILE)));
        assertThat(profile.modelRuns()).as("each call through DJL's predictor is one model_run").hasSize(5);
        assertThat(profile.kernels()).extracting(OrtProfile.Kernel::opType).contains("Conv");
    }

    @Test
    void aBlockWithoutOrtsSessionIsNamedInOneLine() {
        assertThatThrownBy(() -> DjlOrtEngine.session(Blocks.identityBlock()))
                .isInstanceOf(BenchException.class)
                .hasMessageStartingWith("engine 'djl-ort' cannot reach ONNX Runtime's session inside DJL's "
                        + "ai.djl.nn.LambdaBlock (session)")
                .hasMessageEndingWith("expected DJL's OnnxRuntime engine to keep it in field 'session' (DJL 0.36.0)");
    }
}

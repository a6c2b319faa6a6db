package dev.inferbench.results;

import org.assertj.core.api.Assertions;
import java.util.Map;
import dev.inferbench.BenchException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** environment.json names the CPU and its vector flags, the JDK, the engines loaded and the commit built. */
class FingerprintTest {
    @TempDir
    Path dir;

    @Test
    void writesWhatTheReportShows() throws Exception {
        Path model = Files.writeString(dir.resolve("m.onnx"), "abc");
        Path file = Fingerprint.write(dir, Map.of("m", model, "gone", dir.resolve("gone.onnx")));
        JsonNode env = new ObjectMapper().readTree(file.toFile());
        assertThat(env.path("cpu").path("cores").asInt()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(env.path("cpu").path("model").asText()).isNotBlank();
        String cpuFlags = Fingerprint.cpuinfo().getOrDefault("flags", "");
        if (cpuFlags.contains(" avx2")) {
            assertThat(env.path("cpu").path("flags").toString()).contains("\"avx2\"").doesNotContain("\"fpu\"");
        }
        assertThat(env.path("jdk").path("version").asText()).isEqualTo(System.getProperty("java.version"));
        assertThat(env.path("engines").path("onnxruntime").asText()).matches("\\d+\\.\\d+\\.\\d+");
        assertThat(env.path("engines").path("djl").asText()).isEqualTo("0.36.0");
        assertThat(env.path("os").path("kernel").asText()).isEqualTo(System.getProperty("os.version"));
        assertThat(env.path("date").asText()).isNotBlank();
        assertThat(env.path("models.sha256").path("m").asText())
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assertThat(env.path("models.sha256").path("gone").asText()).isEqualTo("no file at start");
        // the build bakes the commit in (git.properties); a build outside git has none and says so
        boolean baked = Fingerprint.class.getResource("/dev/inferbench/git.properties") != null;
        assertThat(env.path("git").path("commit").asText()).matches(baked ? "[0-9a-f]{40}" : "unknown");
    }

    /**
     * --version names the ONNX Runtime the jar bundles (its own pom inside the jar), which is the one that loads: a
     * build given another version names that one, not the pom's property.
     */
    @Test
    void theBundledOrtVersionIsTheOneThatLoads() {
        assertThat(BuildInfo.bundledOrt()).contains(ai.onnxruntime.OrtEnvironment.getEnvironment().getVersion());
        assertThat(BuildInfo.ofThisJar().onnxruntime()).isEqualTo(BuildInfo.bundledOrt().orElseThrow());
    }

    @Test
    void aResumedRunKeepsItsFirstFingerprint() throws Exception {
        Files.writeString(dir.resolve(RunLayout.ENVIRONMENT), "{\"date\":\"first\"}");
        Fingerprint.write(dir, Map.of());
        assertThat(Files.readString(dir.resolve(RunLayout.ENVIRONMENT))).isEqualTo("{\"date\":\"first\"}");
    }

    /** A resumed run must not pool forks of another model file into its cells. */
    @Test
    void resumingWithAnotherModelFileIsRefused(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        Path model = tmp.resolve("mine.onnx");
        Files.writeString(model, "the model the run started with");
        Fingerprint.write(tmp, Map.of("mine", model));
        Fingerprint.write(tmp, Map.of("mine", model)); // the same file: the resume goes on
        Files.writeString(model, "another model under the same name");
        Assertions.assertThatThrownBy(() -> Fingerprint.write(tmp, Map.of("mine", model)))
                .isInstanceOf(BenchException.class)
                .hasMessageStartingWith("model 'mine' is not the file this run started with: " + model)
                .hasMessageEndingWith("expected the same model file to resume (or start a new run)");
    }
}

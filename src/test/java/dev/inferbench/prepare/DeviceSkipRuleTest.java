package dev.inferbench.prepare;

import dev.inferbench.BenchException;
import dev.inferbench.engine.EngineKind;
import dev.inferbench.engine.GpuProbe;
import dev.inferbench.engine.JarContents;
import dev.inferbench.config.BenchConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DeviceSkipRuleTest {
    @TempDir
    Path dir;

    private GpuProbe probeWithDeviceNodes(int gpus) throws IOException {
        Path dev = dir.resolve("dev-" + gpus);
        if (Files.isDirectory(dev)) {
            return new GpuProbe(dir.resolve("proc-absent"), dev);
        }
        Files.createDirectories(dev);
        Files.createFile(dev.resolve("nvidiactl")); // not a GPU: the control node every driver install has
        for (int i = 0; i < gpus; i++) {
            Files.createFile(dev.resolve("nvidia" + i));
        }
        return new GpuProbe(dir.resolve("proc-absent"), dev);
    }

    private static Map<String, String> cell(String engine, String device) {
        return Map.of("model", "/nowhere/mlp-tiny.onnx", "engine", engine, "device", device, "batchSize", "1");
    }

    private static BenchConfig config() throws BenchException {
        return BenchConfig.parse("");
    }

    @Test
    void probeCountsGpusFromProcFirstThenDeviceNodes() throws IOException {
        assertThat(probeWithDeviceNodes(0).cudaDevices()).isZero();
        assertThat(probeWithDeviceNodes(2).cudaDevices()).isEqualTo(2);
        Path proc = Files.createDirectories(dir.resolve("proc"));
        assertThat(new GpuProbe(proc, dir.resolve("dev-2")).cudaDevices()).as("empty in containers").isEqualTo(2);
        Files.createDirectory(proc.resolve("0000:3b:00.0"));
        assertThat(new GpuProbe(proc, dir.resolve("dev-2")).cudaDevices()).isEqualTo(1);
    }

    @Test
    void cudaCellsAreSkippedWithTheReasonWhenNoGpuExists() throws Exception {
        DeviceSkipRule rule = new DeviceSkipRule(probeWithDeviceNodes(0), e -> true);
        for (String engine : new String[]{"ort", "djl-ort", "djl-pytorch"}) {
            assertThat(rule.skipReason(cell(engine, "cuda"), config()))
                    .contains("device 'cuda': no NVIDIA GPU found");
            assertThat(rule.skipReason(cell(engine, "cuda:1"), config()))
                    .contains("device 'cuda:1': no NVIDIA GPU found");
            assertThat(rule.skipReason(cell(engine, "cpu"), config())).isEmpty();
        }
    }

    @Test
    void cpuOnlyBuildsAreSkippedOnAGpuMachine() throws Exception {
        DeviceSkipRule cpuBuild = new DeviceSkipRule(probeWithDeviceNodes(1), e -> false);
        assertThat(cpuBuild.skipReason(cell("ort", "cuda"), config()))
                .contains("device 'cuda': engine 'ort' in this jar is a CPU build; expected a jar built with mvn -Pcuda package");
        assertThat(cpuBuild.skipReason(cell("djl-pytorch", "cuda:0"), config())).get().asString()
                .contains("PYTORCH_LIBRARY_PATH");
        DeviceSkipRule gpuBuild = new DeviceSkipRule(probeWithDeviceNodes(1), e -> true);
        assertThat(gpuBuild.skipReason(cell("ort", "cuda:0"), config())).isEmpty();
    }

    @Test
    void aDeviceIndexBeyondTheGpusIsBadInputNotASkip() throws Exception {
        DeviceSkipRule rule = new DeviceSkipRule(probeWithDeviceNodes(2), e -> true);
        assertThatThrownBy(() -> rule.skipReason(cell("ort", "cuda:2"), config()))
                .isInstanceOf(BenchException.class)
                .hasMessage("device 'cuda:2' does not exist; the host has 2 GPU(s): expected cuda:0 to cuda:1");
        assertThatThrownBy(() -> rule.skipReason(cell("ort", "tpu"), config()))
                .hasMessage("unknown device 'tpu'; expected one of: cpu, cuda, cuda:N");
    }

    @Test
    void thisJarIsACpuBuild() {
        // The default build has no CUDA provider nor CUDA libtorch: on a GPU machine its cuda cells are skipped.
        assertThat(EngineKind.ORT.hasCudaBuild()).isFalse();
        assertThat(EngineKind.DJL_ORT.hasCudaBuild()).isFalse();
    }

    @Test
    void djlPyTorchCellsAreSkippedWithTheReasonInAnOrtOnlyJar() throws Exception {
        JarContents ortOnly = new JarContents(resource -> false, name -> null);
        DeviceSkipRule rule = new DeviceSkipRule(probeWithDeviceNodes(0), e -> true, ortOnly);
        assertThat(rule.skipReason(cell("djl-pytorch", "cpu"), config())).contains("engine 'djl-pytorch' is not in"
                + " this jar (no libtorch nor DJL's PyTorch JNI: an ONNX-Runtime-only build, mvn -Port-only);"
                + " expected the full jar (mvn -q package) for djl-pytorch cells");
        assertThat(rule.skipReason(cell("ort", "cpu"), config())).isEmpty();
        assertThat(rule.skipReason(cell("djl-ort", "cpu"), config())).isEmpty();
    }

    @Test
    void aLibtorchOnDiskNeedsOnlyTheJni() {
        Set<String> jniOnly = Set.of("jnilib/pytorch.properties");
        assertThat(new JarContents(jniOnly::contains, name -> "/opt/libtorch/lib").missing(EngineKind.DJL_PYTORCH))
                .isEmpty();
        assertThat(new JarContents(jniOnly::contains, name -> null).missing(EngineKind.DJL_PYTORCH)).get().asString()
                .contains("(no libtorch:");
        assertThat(new JarContents(resource -> false, name -> "/opt/libtorch/lib").missing(EngineKind.DJL_PYTORCH))
                .get().asString().contains("(no DJL's PyTorch JNI:");
    }

    @Test
    void theFullBuildCarriesLibtorch() {
        // the test class path is the full build's: libtorch and its JNI come from Maven, so nothing is missing
        assertThat(new JarContents(r -> getClass().getClassLoader().getResource(r) != null, name -> null)
                .missing(EngineKind.DJL_PYTORCH)).isEmpty();
    }
}

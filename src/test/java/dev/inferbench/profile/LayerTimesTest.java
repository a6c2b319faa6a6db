package dev.inferbench.profile;

import dev.inferbench.model.OnnxExporter;
import dev.inferbench.model.ResNet;
import dev.inferbench.model.stats.ActivationMemory;
import dev.inferbench.model.stats.LayerName;
import dev.inferbench.model.stats.OnnxSummary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * On a profile ONNX Runtime 1.29 wrote for the zoo's resnet-tiny with module-path node names (1 warmup call, then 2
 * measured calls, batch 1, optimization level all).
 */
class LayerTimesTest {
    static final Path PROFILE = Path.of("src/test/resources/profile/ort-profile-resnet-tiny-layers-b1.json");

    @TempDir
    Path dir;

    @Test
    void ortNodesAreMappedToTheFilesLayersAndModules() throws Exception {
        LayerTimes t = LayerTimes.of("cell", OrtProfile.read(PROFILE), 2, OnnxSummary.read(resnetTiny()));

        assertThat(t.runs()).isEqualTo(2);
        // ORT's fused Conv+BatchNorm+ReLU is named after the ReLU's output tensor relu.out_1: layer1.0's first ReLU
        assertThat(layer(t, "relu.out_1_nchwc")).satisfies(l -> {
            assertThat(l.layer()).isEqualTo("layer1.0.relu");
            assertThat(l.module()).isEqualTo("layer1.0");
            assertThat(l.opType()).isEqualTo("Conv");
            assertThat(l.operator()).isEqualTo("Conv\u2026Relu");
        });
        assertThat(layer(t, "layer2.0.downsample.1.out_0_nchwc").module()).isEqualTo("layer2.0.downsample");
        assertThat(layer(t, "fc").module()).isEmpty();
        assertThat(layer(t, "fc").operator()).isEqualTo("Gemm");
        assertThat(layer(t, "ReorderOutput").module()).isEqualTo(LayerTimes.ENGINE_ADDED);
        // each node's mean over the 2 measured runs, from the profile's own durations
        OrtProfile measured = OrtProfile.read(PROFILE).lastRuns(2);
        long fcMicros = measured.kernels().stream().filter(k -> k.node().equals("fc")).mapToLong(OrtProfile.Kernel::micros).sum();
        assertThat(layer(t, "fc").msPerRun()).isCloseTo(fcMicros / 1e3 / 2, within(1e-12));
        assertThat(t.layers().stream().mapToDouble(LayerTimes.Layer::share).sum()).isCloseTo(1, within(1e-9));
        assertThat(t.modules().stream().mapToDouble(LayerTimes.Module::msPerRun).sum()).isCloseTo(t.kernelMs(), within(1e-9));
        assertThat(t.layers()).isSortedAccordingTo((a, b) -> Double.compare(b.msPerRun(), a.msPerRun()));
    }

    /**
     * ORT's arena over the first run: 2,280 bytes in use before the first kernel, then at most two 16x32x32 float
     * tensors (131,072 bytes) live at once, since the optimizer fused every BatchNorm and ReLU into its Conv. The
     * graph as written holds three such tensors at layer1.0's residual add (196,608 bytes).
     */
    @Test
    void arenaFiguresOfTheFirstRunAgainstTheGraphEstimate() throws Exception {
        OrtArena arena = OrtArena.of(OrtProfile.read(PROFILE)).orElseThrow();
        assertThat(arena.baselineBytes()).isEqualTo(2_280);
        assertThat(arena.livePeakBytes()).isEqualTo(131_072);
        assertThat(arena.livePeakNode()).isEqualTo("relu.out_1_nchwc");
        assertThat(arena.highWaterBytes()).isEqualTo(131_072);
        assertThat(arena.kernels()).isEqualTo(11);
        ActivationMemory graph = ActivationMemory.of(resnetTiny(), "resnet-tiny", Map.of(), 1, 128);
        assertThat(graph.peakBytes()).isEqualTo(3 * 65_536);
        // a profile without arena figures (older ORT) has none
        assertThat(OrtArena.of(new OrtProfile(java.util.List.of(new OrtProfile.Kernel("a", "Conv", 0, 1)),
                java.util.List.of()))).isEmpty();
    }

    @Test
    void jsonRoundTripAndTextTable() throws Exception {
        LayerTimes t = LayerTimes.of("cell", OrtProfile.read(PROFILE), 2, OnnxSummary.read(resnetTiny()));
        Path json = dir.resolve("layers.json");
        try (OutputStream out = Files.newOutputStream(json)) {
            t.writeJson(out);
        }
        assertThat(LayerTimes.read(json)).isEqualTo(t);
        ByteArrayOutputStream txt = new ByteArrayOutputStream();
        t.printTable(new PrintStream(txt, true, StandardCharsets.UTF_8), 3);
        // header, 3 layers, header, 3 modules
        assertThat(txt.toString(StandardCharsets.UTF_8).lines()).hasSize(8)
                .anySatisfy(l -> assertThat(l).startsWith(t.layers().get(0).layer()))
                .anySatisfy(l -> assertThat(l).startsWith(LayerName.shown(t.modules().get(0).module())));
    }

    private static LayerTimes.Layer layer(LayerTimes t, String ortNode) {
        return t.layers().stream().filter(l -> l.node().equals(ortNode)).findFirst().orElseThrow();
    }

    private Path resnetTiny() throws Exception {
        Path file = dir.resolve("resnet-tiny.onnx");
        if (!Files.exists(file)) {
            Files.write(file, new OnnxExporter(1).export(ResNet.tiny().build()).toByteArray());
        }
        return file;
    }
}

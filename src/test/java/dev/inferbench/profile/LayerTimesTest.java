package dev.inferbench.profile;

import dev.inferbench.model.Bert;
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
import java.util.List;
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
        // a node ORT added takes the module of the kernel before it: the global average pool's, the top level
        assertThat(layer(t, "ReorderOutput")).satisfies(l -> {
            assertThat(l.layer()).isEqualTo("ReorderOutput");
            assertThat(l.module()).isEmpty();
        });
        // each node's mean over the 2 measured runs, from the profile's own durations
        OrtProfile measured = OrtProfile.read(PROFILE).lastRuns(2);
        long fcMicros = measured.kernels().stream().filter(k -> k.node().equals("fc")).mapToLong(OrtProfile.Kernel::micros).sum();
        assertThat(layer(t, "fc").msPerRun()).isCloseTo(fcMicros / 1e3 / 2, within(1e-12));
        assertThat(t.layers().stream().mapToDouble(LayerTimes.Layer::share).sum()).isCloseTo(1, within(1e-9));
        assertThat(t.modules().stream().mapToDouble(LayerTimes.Module::msPerRun).sum()).isCloseTo(t.kernelMs(), within(1e-9));
        assertThat(t.layers()).isSortedAccordingTo((a, b) -> Double.compare(b.msPerRun(), a.msPerRun()));
    }

    /** The names ORT gives what it fuses in a transformer, each traced to the file's node and module. */
    @Test
    void fusedTransformerNodesFindTheirModules() throws Exception {
        Path bert = dir.resolve("bert-tiny.onnx");
        Files.write(bert, new OnnxExporter(1).export(Bert.tiny().build()).toByteArray());
        List<OrtProfile.Kernel> kernels = List.of(
                new OrtProfile.Kernel("ReorderInput", "ReorderInput", 0, 1),
                new OrtProfile.Kernel("encoder.layer.0.attention.self.matmul/MatMulScaleFusion/", "FusedMatMul", 1, 2),
                new OrtProfile.Kernel("encoder.layer.0.intermediate.dense:matmul", "MatMul", 3, 4),
                new OrtProfile.Kernel("BiasGelu_token_3", "BiasGelu", 7, 3),
                new OrtProfile.Kernel("fused pooler.dense:matmul/MatMulAddFusion", "FusedGemm", 10, 5));
        LayerTimes t = LayerTimes.of("cell", new OrtProfile(kernels, List.of(new OrtProfile.Run(0, 20))), 1,
                OnnxSummary.read(bert));

        assertThat(layer(t, "ReorderInput").module()).isEqualTo(LayerTimes.ENGINE_ADDED);
        assertThat(layer(t, "encoder.layer.0.attention.self.matmul/MatMulScaleFusion/")).satisfies(l -> {
            assertThat(l.layer()).isEqualTo("encoder.layer.0.attention.self.matmul");
            assertThat(l.module()).isEqualTo("encoder.layer.0.attention.self");
            assertThat(l.operator()).isEqualTo("FusedMatMul\u2026MatMul");
        });
        assertThat(layer(t, "BiasGelu_token_3").module()).isEqualTo("encoder.layer.0.intermediate");
        assertThat(layer(t, "fused pooler.dense:matmul/MatMulAddFusion").layer()).isEqualTo("pooler.dense:matmul");
        assertThat(t.modules()).extracting(LayerTimes.Module::module).containsExactly("encoder.layer.0.intermediate",
                "pooler", "encoder.layer.0.attention.self", LayerTimes.ENGINE_ADDED);
        assertThat(t.modules().get(0).msPerRun()).isCloseTo(0.007, within(1e-12));
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

    /**
     * The independent check: ORT's arena, read after each kernel of bert-tiny's first run (batch 1, seqLen 128;
     * profile trimmed to the fields inferbench reads), held at most 590,336 bytes of intermediates, to the byte what
     * the graph holds between two nodes at most: two [128, 512] floats of the feed-forward layer, the residual input
     * [128, 128] and the mask bias [128]. ORT's fusions (BiasGelu for the bias Add and GELU's five operators) change
     * where that happens, not how much. Within a node the graph holds 852,480 bytes.
     */
    @Test
    void ortArenaAgreesWithTheGraphOnBertTiny() throws Exception {
        OrtArena arena = OrtArena.of(OrtProfile.read(Path.of("src/test/resources/profile/ort-profile-bert-tiny-b1-trimmed.json")))
                .orElseThrow();
        Path bert = dir.resolve("bert-tiny.onnx");
        Files.write(bert, new OnnxExporter(1).export(Bert.tiny().build()).toByteArray());
        ActivationMemory graph = ActivationMemory.of(bert, "bert-tiny", Map.of(), 1, 128);

        assertThat(arena.livePeakBytes()).isEqualTo(590_336).isEqualTo(graph.peakBetweenNodesBytes());
        assertThat(arena.livePeakNode()).isEqualTo("BiasGelu");
        assertThat(graph.peakBytes()).isEqualTo(852_480);
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

package dev.inferbench.report;

import dev.inferbench.model.OnnxExporter;
import dev.inferbench.model.ResNet;
import dev.inferbench.model.stats.ActivationMemory;
import dev.inferbench.model.stats.OnnxSummary;
import dev.inferbench.profile.ActivationPass;
import dev.inferbench.profile.LayerTimes;
import dev.inferbench.profile.OpProfilePass;
import dev.inferbench.profile.OrtProfile;
import dev.inferbench.results.RunLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The per-layer section and its plots come from what the run folder holds: layers/ and op-profile/<cell>/layers.json. */
class LayerSectionTest {
    private static final String CELL =
            "InferenceBenchmark.infer-sample-batchSize=2-device=cpu-engine=ort-model=resnet-tiny-threads=0";
    /** ORT 1.29's profile of the zoo's resnet-tiny at batch 1, as LayerTimesTest reads it. */
    private static final Path PROFILE = Path.of("src/test/resources/profile/ort-profile-resnet-tiny-layers-b1.json");

    @TempDir
    Path dir;

    @Test
    void activationAndTimeByLayerInTheReports() throws Exception {
        Path run = Files.createDirectories(dir.resolve("run"));
        Files.copy(ReportsTest.runA().resolve("jmh-result.json"), run.resolve("jmh-result.json"));
        Path model = dir.resolve("resnet-tiny.onnx");
        Files.write(model, new OnnxExporter(1).export(ResNet.tiny().build()).toByteArray());
        ActivationMemory b2 = ActivationMemory.of(model, "resnet-tiny", Map.of(), 2, 128);
        ActivationMemory b1 = ActivationMemory.of(model, "resnet-tiny", Map.of(), 1, 128);
        ActivationPass.write(new ActivationPass.Entry("resnet-tiny", "fp32", b2),
                RunLayout.of(run).activation("resnet-tiny", 2, 128, "fp32"));
        ActivationPass.write(new ActivationPass.Entry("resnet-tiny", "fp32", b1),
                RunLayout.of(run).activation("resnet-tiny", 1, 128, "fp32"));
        Path ops = Files.createDirectories(RunLayout.of(run).opProfile().resolve(CELL));
        LayerTimes times = LayerTimes.of("the cell", OrtProfile.read(PROFILE), 2, OnnxSummary.read(model));
        try (OutputStream out = Files.newOutputStream(ops.resolve(OpProfilePass.LAYERS_JSON))) {
            times.writeJson(out);
        }

        Reports.writeAll(run);

        String md = Files.readString(run.resolve("report/report.md"));
        assertThat(md).contains("## Per layer: resnet-tiny")
                .contains(MarkdownReport.escape(ActivationPass.line("resnet-tiny", b1)))
                .contains(MarkdownReport.escape(ActivationPass.line("resnet-tiny", b2)))
                // the smallest batch first, and the modules of that batch by their peak
                .containsSubsequence("at batch 1:", "at batch 2:", "Modules by activation memory at batch 1 (fp32)")
                // a CNN's inputs have no sequence: seqLen changes nothing and is not named
                .doesNotContain("seqLen")
                .contains("| layer1.0 | ")
                .contains("Conv\u2026Relu")
                // ORT's arena (the recorded batch-1 profile) beside the graph's peak at the profiled cell's batch, 2
                .contains("live intermediates peaked at 128.0 KiB after relu.out\\_1\\_nchwc")
                .contains("the graph as written, at the same batch: " + ActivationPass.size(b2.peakBetweenNodesBytes())
                        + " live between two nodes at most")
                .contains(ActivationPass.size(b2.peakBytes()) + " while a node runs");
        assertThat(b2.peakBytes()).isEqualTo(2 * b1.peakBytes());
        assertThat(b1.sequence()).isFalse();
        String html = Files.readString(run.resolve("report/report.html"));
        assertThat(html).contains("<h2>Per layer: resnet-tiny</h2>", "<td class=\"num\">", "id=\"plot-resnet-tiny-activation-by-node\"");
        assertThat(run.resolve("report/plots/resnet-tiny-activation-by-node.png")).isNotEmptyFile();
        assertThat(run.resolve("report/plots/resnet-tiny-time-by-module.svg")).isNotEmptyFile();
    }

    /** The activation plot's x axis ends on a round step: 438 nodes (bert_base) to 450, 177 (resnet50) to 180. */
    @Test
    void roundStepsForTheNodeAxis() {
        assertThat(LayerPlots.roundStep(43.8)).isEqualTo(50);
        assertThat(LayerPlots.roundStep(17.7)).isEqualTo(20);
        assertThat(LayerPlots.roundStep(3.3)).isEqualTo(5);
        assertThat(LayerPlots.roundStep(100)).isEqualTo(100);
        assertThat(LayerPlots.roundStep(0.5)).isEqualTo(1);
    }

    @Test
    void nothingWithoutLayerFiles() throws Exception {
        Path run = Files.createDirectories(dir.resolve("plain"));
        Files.copy(ReportsTest.runA().resolve("jmh-result.json"), run.resolve("jmh-result.json"));
        Reports.writeAll(run);
        assertThat(Files.readString(run.resolve("report/report.md"))).doesNotContain("Per layer");
        assertThat(run.resolve("report/plots/resnet-tiny-activation-by-node.png")).doesNotExist();
    }
}

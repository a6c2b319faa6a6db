package dev.inferbench.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The HTML report is one offline file: styles, script and plots inline; flame graphs linked where a fork has one. */
class HtmlReportTest {
    @TempDir
    Path dir;

    @Test
    void selfContainedWithFlameLinks() throws Exception {
        Path run = Files.createDirectories(dir.resolve("run"));
        Files.copy(ReportsTest.runA().resolve("jmh-result.json"), run.resolve("jmh-result.json"));
        String cell = "InferenceBenchmark.infer-sample-batchSize=2-device=cpu-engine=ort-model=resnet-tiny-threads=0";
        // where FlameHook writes (flames/<cell-id>/...) and OpProfilePass (op-profile/<cell-id>/ops.html)
        Path flames = Files.createDirectories(run.resolve("flames").resolve(cell));
        Path fork = Files.createDirectories(flames.resolve("fork-1"));
        Files.writeString(fork.resolve("cpu-forward.html"), "<html></html>");
        Files.writeString(flames.resolve("merged-cpu-forward.html"), "<html></html>");
        Path ops = Files.createDirectories(run.resolve("op-profile").resolve(cell));
        Files.writeString(ops.resolve("ops.html"), "<html></html>");
        Reports.writeAll(run);
        String html = Files.readString(run.resolve("report/report.html"));
        assertThat(html).contains("<a href=\"../flames/" + cell + "/merged-cpu-forward.html\">merged-cpu-forward.html</a> "
                        + "<a href=\"../flames/" + cell + "/fork-1/cpu-forward.html\">fork-1/cpu-forward.html</a> "
                        + "<a href=\"../op-profile/" + cell + "/ops.html\">ops.html</a>")
                .contains("<style>", "<svg");
        // SVG's namespace names are identifiers, never fetched; nothing else may point off the page
        assertThat(html.replace("\"http://www.w3.org/", "\"")).doesNotContain("http://", "https://", "<link", "src=\"");
        assertThat(html.split("cpu-forward.html\"", -1)).hasSize(3);
        assertThat(run.resolve("report/plots/resnet-tiny-means.png")).isNotEmptyFile();
        assertThat(run.resolve("report/plots/resnet-tiny-means.svg")).isNotEmptyFile();
    }

    @Test
    void accuracyAgainstLatencyWhenCellsHaveAnAccuracyMetric() throws Exception {
        Path run = Files.createDirectories(dir.resolve("acc"));
        String json = Files.readString(ReportsTest.runA().resolve("jmh-result.json"))
                .replace("\"secondaryMetrics\": {", "\"secondaryMetrics\": { \"accuracy.top1\" : {\"score\" : 0.75,"
                        + " \"scoreError\" : \"NaN\", \"scoreConfidence\" : [0.75, 0.75], \"scoreUnit\" : \"%\","
                        + " \"rawData\" : [[0.75]]},");
        Files.writeString(run.resolve("jmh-result.json"), json);
        List<String> names = Plots.of(ReportInput.load(List.of(run)).rows()).stream().map(Plots.Plot::name).toList();
        assertThat(names).contains("resnet-tiny-accuracy-top1-vs-latency", "resnet-tiny-latency-vs-batch",
                "resnet-tiny-throughput-vs-batch", "resnet-tiny-means", "resnet-tiny-percentiles");
        Reports.write(List.of(run), run.resolve("report"), EnumSet.of(Reports.Format.PLOTS));
        assertThat(run.resolve("report/plots/resnet-tiny-accuracy-top1-vs-latency.png")).isNotEmptyFile();
    }
}

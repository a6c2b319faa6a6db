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
        Path fork = Files.createDirectories(run.resolve("forks").resolve(cell).resolve("fork-1"));
        Files.writeString(fork.resolve("flame-cpu.html"), "<html></html>");
        Reports.writeAll(run);
        String html = Files.readString(run.resolve("report/report.html"));
        assertThat(html).contains("<a href=\"../forks/" + cell + "/fork-1/flame-cpu.html\">fork-1/flame-cpu.html</a>")
                .contains("<style>", "<svg");
        // SVG's namespace names are identifiers, never fetched; nothing else may point off the page
        assertThat(html.replace("\"http://www.w3.org/", "\"")).doesNotContain("http://", "https://", "<link", "src=\"");
        assertThat(html.split("flame-cpu.html\"", -1)).hasSize(2);
        assertThat(run.resolve("report/plots/resnet-tiny-means.png")).isNotEmptyFile();
        assertThat(run.resolve("report/plots/resnet-tiny-means.svg")).isNotEmptyFile();
    }
}

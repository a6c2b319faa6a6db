package dev.inferbench.report;

import dev.inferbench.results.MetricCatalogue;
import dev.inferbench.results.MetricGroup;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/**
 * The per-model tables of report.md and report.html: params that every row shares are one line above the table, not
 * columns; the metric columns come in groups, and the HTML folds those not open by default.
 */
class ReadableTablesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void paramsTheRowsShareAreOneLineAndOnlyVaryingParamsAreColumns() throws Exception {
        ReportTable resnet = ReportTable.of(ReportInput.load(List.of(ReportsTest.runA())).rows()).get(0);
        assertThat(resnet.params()).containsExactly("batchSize");
        assertThat(resnet.constants()).containsExactly(entry("device", "cpu"), entry("engine", "ort"),
                entry("model", "resnet-tiny"), entry("threads", "0"));
        assertThat(resnet.header()).doesNotContain("model", "engine", "device", "threads").startsWith("batchSize");

        Path out = dir.resolve("report");
        Reports.write(List.of(ReportsTest.runA()), out, EnumSet.of(Reports.Format.MD, Reports.Format.HTML));
        String md = Files.readString(out.resolve("report.md"));
        String mdTable = md.substring(md.indexOf("## resnet-tiny"), md.indexOf("## FaultInjection"));
        assertThat(mdTable).contains("every cell: device=cpu, engine=ort, threads=0.\n\n| batchSize | min (µs) | p50 (µs) |")
                .doesNotContain("| engine", "| device", "| threads", "| model");
        String html = Files.readString(out.resolve("report.html"));
        assertThat(html).contains("<p class=\"same\">every cell: device=cpu, engine=ort, threads=0</p>",
                "<th>batchSize</th>").doesNotContain("<th>engine</th>", "<th>device</th>", "<th>threads</th>");
    }

    @Test
    void aParamThatVariesIsAColumnAgain() throws Exception {
        Path run = Files.createDirectories(dir.resolve("run"));
        JsonNode cells = JSON.readTree(ReportsTest.runA().resolve("jmh-result.json").toFile());
        ((ObjectNode) cells.get(1).get("params")).put("engine", "djl-ort");
        JSON.writeValue(run.resolve("jmh-result.json").toFile(), cells);
        ReportTable resnet = ReportTable.of(ReportInput.load(List.of(run)).rows()).get(0);
        assertThat(resnet.params()).containsExactly("engine", "batchSize");
        assertThat(resnet.constants()).doesNotContainKey("engine").containsKey("device");
        assertThat(resnet.constantsLine()).isEqualTo("every cell: device=cpu, threads=0");
    }

    @Test
    void metricsAreGroupedAndTheHtmlFoldsTheGroupsNotOpenByDefault() throws Exception {
        assertThat(MetricCatalogue.find("latency.sample").group()).isEqualTo(MetricGroup.LATENCY);
        assertThat(MetricCatalogue.find("samples").group()).isEqualTo(MetricGroup.THROUGHPUT);
        assertThat(MetricCatalogue.find("tokens").group()).isEqualTo(MetricGroup.THROUGHPUT);
        assertThat(MetricCatalogue.find("mem.rss.peak").group()).isEqualTo(MetricGroup.MEMORY);
        assertThat(MetricCatalogue.find("model.macs").group()).isEqualTo(MetricGroup.MODEL);
        assertThat(MetricCatalogue.find("fidelity.top1").group()).isEqualTo(MetricGroup.QUALITY);
        assertThat(MetricCatalogue.find("accuracy.top5").group()).isEqualTo(MetricGroup.QUALITY);
        assertThat(MetricCatalogue.find("gc.alloc.rate.norm").group()).isEqualTo(MetricGroup.CPU);

        List<ReportTable> tables = ReportTable.of(ReportInput.load(List.of(ReportsTest.runA())).rows());
        ReportTable fault = tables.get(1);
        // the columns of a group stand together, groups in their order
        List<MetricGroup> groups = fault.columns().stream().map(ReportTable.Column::group)
                .filter(Objects::nonNull).toList();
        assertThat(groups).containsExactly(MetricGroup.LATENCY, MetricGroup.LATENCY, MetricGroup.CPU, MetricGroup.CPU,
                MetricGroup.CPU);

        Path out = dir.resolve("report");
        Reports.write(List.of(ReportsTest.runA()), out, EnumSet.of(Reports.Format.HTML));
        String html = Files.readString(out.resolve("report.html"));
        assertThat(html).contains(".fold-cpu .g-cpu { display: none; }",
                "<table id=\"cells-1\" class=\"cells fold-cpu\">",
                "<th colspan=\"3\" class=\"g-cpu\">cpu &amp; gc</th>",
                "<input type=\"checkbox\" data-table=\"cells-1\" data-group=\"cpu\"> cpu &amp; gc (3)",
                "<input type=\"checkbox\" data-table=\"cells-1\" data-group=\"latency\" checked> latency (2)",
                "<td class=\"num g-cpu\">0.00292</td>");
        // latency and throughput are open: the resnet table folds nothing
        assertThat(html).contains("<table id=\"cells-0\" class=\"cells\">");
    }

    @Test
    void aTimePerSampleIsInTheTablesUnitBesideTheLatencies() throws Exception {
        Path run = Files.createDirectories(dir.resolve("run"));
        JsonNode cells = JSON.readTree(ReportsTest.runA().resolve("jmh-result.json").toFile());
        ((ObjectNode) cells.get(0).get("secondaryMetrics")).set("latency.sample", JSON.readTree("{\"score\": 0.2,"
                + " \"scoreError\": \"NaN\", \"scoreConfidence\": [0.2, 0.2], \"scoreUnit\": \"ms/sample\","
                + " \"rawData\": [[0.2]]}"));
        JSON.writeValue(run.resolve("jmh-result.json").toFile(), cells);
        ReportTable resnet = ReportTable.of(ReportInput.load(List.of(run)).rows()).get(0);
        List<String> header = resnet.header();
        int perSample = header.indexOf("latency.sample (µs/sample)");
        // after the calls' spread, the last of the latency figures
        assertThat(perSample).as("column in " + header).isEqualTo(header.indexOf("sd (µs)") + 1);
        assertThat(resnet.values(resnet.rows().get(0)).get(perSample).text()).isEqualTo("200.0");
        assertThat(resnet.columns().get(perSample).group()).isEqualTo(MetricGroup.LATENCY);
    }
}

package dev.inferbench.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.inferbench.results.CallFigures;
import dev.inferbench.stats.Percentiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** github-action-benchmark's two files split the metrics by compare's direction rule, quality metrics included. */
class ExportsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static String metric(String name, double score, String unit) {
        return "\"" + name + "\" : {\"score\" : " + score + ", \"scoreError\" : \"NaN\", \"scoreConfidence\" : ["
                + score + ", " + score + "], \"scoreUnit\" : \"" + unit + "\", \"rawData\" : [[" + score + "]]},";
    }

    private static List<String> names(List<ReportRow> rows, boolean biggerIsBetter) throws Exception {
        return names(rows, CallFigures.DEFAULT_PERCENTILES, biggerIsBetter);
    }

    private static List<String> names(List<ReportRow> rows, double[] percentiles, boolean biggerIsBetter)
            throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Exports.githubActionBenchmark(rows, percentiles, biggerIsBetter, out);
        List<String> names = new ArrayList<>();
        JSON.readTree(out.toByteArray()).forEach(n -> names.add(n.get("name").asText().replaceAll(".* ", "")));
        return names;
    }

    @Test
    void qualityMetricsAreBiggerIsBetter() throws Exception {
        Path run = Files.createDirectories(dir.resolve("run"));
        String json = Files.readString(ReportsTest.runA().resolve("jmh-result.json"))
                .replace("\"secondaryMetrics\": {", "\"secondaryMetrics\": { " + metric("fidelity.top1", 0.99, "%")
                        + metric("fidelity.cosine", 0.999, "cos") + metric("fidelity.maxabs", 0.01, "abs")
                        + metric("accuracy.top1", 0.75, "%") + metric("gmacs", 12.5, "GMAC/s")
                        + metric("model.params", 1000, "params"));
        Files.writeString(run.resolve("jmh-result.json"), json);
        List<ReportRow> rows = ReportInput.load(List.of(run)).rows();
        assertThat(rows.get(0).extra()).containsKeys("fidelity.top1", "gmacs");
        assertThat(names(rows, true)).contains("samples", "fidelity.top1", "fidelity.cosine", "accuracy.top1", "gmacs")
                .doesNotContain("fidelity.maxabs", "model.params", "mean", "p99");
        // p99 of these cells rests on 4-243 calls: n/a, so not exported as a figure (it needs 1,000)
        assertThat(names(rows, false)).contains("mean", "fidelity.maxabs", "model.params", "gc.alloc.rate")
                .doesNotContain("samples", "fidelity.top1", "fidelity.cosine", "accuracy.top1", "gmacs", "p99");
    }

    /** Bencher's latency measures share one unit: latency.sample (ms/sample) goes out in ns like latency itself. */
    @Test
    void bencherGivesLatencyPerSampleInNanosecondsLikeLatency() throws Exception {
        Path run = Files.createDirectories(dir.resolve("run"));
        String json = Files.readString(ReportsTest.runA().resolve("jmh-result.json"))
                .replace("\"secondaryMetrics\": {", "\"secondaryMetrics\": { " + metric("latency.sample", 0.25, "ms/sample"));
        Files.writeString(run.resolve("jmh-result.json"), json);
        List<ReportRow> rows = ReportInput.load(List.of(run)).rows();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Exports.bencher(rows, CallFigures.DEFAULT_PERCENTILES, out);
        var first = JSON.readTree(out.toByteArray()).elements().next();
        assertThat(first.at("/latency-sample/value").asDouble()).isEqualTo(250_000.0);
        assertThat(first.at("/latency/value").asDouble()).as("latency in ns").isGreaterThan(1000);
    }

    /** min, sd and the percentiles a user chose reach the exports, the CSV and the tables; n/a ones stay out. */
    @Test
    void theCallsFiguresGoOutAtTheChosenPercentiles() throws Exception {
        double[] chosen = Percentiles.parseList("50,80,99.9");
        List<ReportRow> rows = ReportInput.load(List.of(ReportsTest.runA())).rows(chosen);
        // the SampleTime cells (243 and 191 calls): min, p50, p80 and sd are figures, p99.9 (10,000 calls) is not
        assertThat(names(rows, chosen, false)).contains("min", "p50", "p80", "sd").doesNotContain("p90", "p99.9");
        assertThat(names(rows, chosen, true)).doesNotContain("min", "p50", "p80", "sd");
        assertThat(names(ReportInput.load(List.of(ReportsTest.runA())).rows(), false))
                .contains("min", "p50", "p90", "sd").doesNotContain("p80");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Exports.bencher(rows, chosen, out);
        var first = JSON.readTree(out.toByteArray()).elements().next();
        assertThat(first.at("/latency-min/value").asDouble()).isPositive()
                .isLessThanOrEqualTo(first.at("/latency-p50/value").asDouble());
        assertThat(first.at("/latency-p80/value").asDouble()).isGreaterThan(first.at("/latency-p50/value").asDouble());
        assertThat(first.at("/latency-sd/value").asDouble()).isPositive();
        assertThat(first.has("latency-p99.9")).isFalse();

        Path report = dir.resolve("report");
        Reports.write(List.of(ReportsTest.runA()), report, EnumSet.of(Reports.Format.CSV, Reports.Format.MD), chosen);
        assertThat(Files.readAllLines(report.resolve("report.csv")).get(0))
                .contains(",unit,min,p50,p80,p99.9,max,mean,mean.error,sd,forks,").doesNotContain("p95");
        assertThat(Files.readString(report.resolve("report.md")))
                .contains("| min (µs) | p50 (µs) | p80 (µs) | p99.9 (µs) | max (µs) | mean (µs) | ± (µs) | sd (µs) |");
    }
}

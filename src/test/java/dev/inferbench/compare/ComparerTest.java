package dev.inferbench.compare;

import java.util.stream.Collectors;
import java.util.TreeMap;
import java.util.Random;
import java.util.LinkedHashMap;
import java.util.HashMap;
import java.io.ByteArrayInputStream;
import dev.inferbench.results.jmh.JmhJson;
import dev.inferbench.BenchException;
import dev.inferbench.report.CompareHtml;
import dev.inferbench.report.CompareJson;
import dev.inferbench.report.CompareTable;
import dev.inferbench.stats.Verdict;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ComparerTest {

    /** Five forks of two iterations around {@code ms}, spread 1 %, with a samples/s metric and an unknown one. */
    static CellResults cell(String batch, double ms, String mode, String unit) {
        double[][] time = new double[5][];
        double[][] samples = new double[5][];
        double[][] odd = new double[5][];
        for (int f = 0; f < 5; f++) {
            double v = ms * (1 + 0.01 * (f - 2));
            time[f] = new double[]{v, v};
            samples[f] = new double[]{1000 / v};
            odd[f] = new double[]{f};
        }
        Map<String, MetricSeries> metrics = new LinkedHashMap<>();
        metrics.put("time", MetricSeries.mean("time", unit, time));
        metrics.put("samples", MetricSeries.mean("samples", "samples/s", samples));
        metrics.put("odd.metric", MetricSeries.mean("odd.metric", "things", odd));
        return new CellResults(new CellKey("b.Bench.infer", Map.of("batchSize", batch, "engine", "ort")), mode, metrics);
    }

    @Test
    void directionAwareVerdictsAndOneSidedCells() throws BenchException {
        Comparer.Report r = Comparer.compare(
                List.of(cell("1", 20, "avgt", "ms/op"), cell("2", 30, "avgt", "ms/op"), cell("8", 150, "avgt", "ms/op")),
                List.of(cell("1", 22, "avgt", "ms/op"), cell("2", 30.1, "avgt", "ms/op"), cell("16", 300, "avgt", "ms/op")),
                0.03, 0.95);
        Map<String, Comparison> byMetric1 = new HashMap<>();
        r.rows().stream().filter(c -> c.cell().params().get("batchSize").equals("1")).forEach(c -> byMetric1.put(c.metric(), c));
        assertThat(byMetric1.get("time").verdictWord()).isEqualTo("slower");
        assertThat(byMetric1.get("samples").verdict()).isEqualTo(Verdict.WORSE);
        assertThat(byMetric1.get("samples").verdictWord()).isEqualTo("worse");
        assertThat(byMetric1.get("odd.metric").verdictWord()).isEqualTo("direction unknown");
        assertThat(r.rows().stream().filter(c -> c.cell().params().get("batchSize").equals("2") && c.metric().equals("time"))
                .findFirst().orElseThrow().verdict()).isEqualTo(Verdict.SAME);
        assertThat(r.onlyBaseline()).extracting(CellKey::label).containsExactly("infer batchSize=8 engine=ort");
        assertThat(r.onlyCandidate()).extracting(CellKey::label).containsExactly("infer batchSize=16 engine=ort");
        assertThat(r.anyWorse()).isTrue();
    }

    @Test
    void differentModesUnitsOrNoMatchAreBadInput() {
        assertThatThrownBy(() -> Comparer.compare(List.of(cell("1", 20, "avgt", "ms/op")),
                List.of(cell("1", 20, "sample", "ms/op")), 0.03, 0.95)).hasMessageContaining("mode avgt in the baseline but sample");
        assertThatThrownBy(() -> Comparer.compare(List.of(cell("1", 20, "avgt", "ms/op")),
                List.of(cell("1", 20, "avgt", "us/op")), 0.03, 0.95)).hasMessageContaining("in ms/op in the baseline but us/op");
        assertThatThrownBy(() -> Comparer.compare(List.of(cell("1", 20, "avgt", "ms/op")),
                List.of(cell("2", 20, "avgt", "ms/op")), 0.03, 0.95)).hasMessageContaining("no cell of the baseline matches");
    }

    /** A cell with its main metric ("time" or "throughput") around {@code v} over 5 forks, spread 1 %. */
    static CellResults modeCell(String mode, String metric, String unit, double v) {
        double[][] forks = new double[5][];
        for (int f = 0; f < 5; f++) {
            forks[f] = new double[]{v * (1 + 0.01 * (f - 2))};
        }
        return new CellResults(new CellKey("b.Bench.infer", Map.of("batchSize", "1")), mode,
                Map.of(metric, MetricSeries.mean(metric, unit, forks)));
    }

    @Test
    void aCellMeasuredInSeveralModesIsComparedInEachMode() throws BenchException {
        // -bm avgt,thrpt: the avgt time doubles, thrpt stays; the last mode must not hide the first
        Comparer.Report r = Comparer.compare(
                List.of(modeCell("avgt", "time", "ms/op", 10), modeCell("thrpt", "throughput", "ops/ms", 0.1)),
                List.of(modeCell("thrpt", "throughput", "ops/ms", 0.1), modeCell("avgt", "time", "ms/op", 20)), 0.03, 0.99);
        assertThat(r.rows()).extracting(c -> c.cell().label() + " " + c.metric() + " " + c.verdictWord())
                .containsExactlyInAnyOrder("infer [avgt] batchSize=1 time slower", "infer [thrpt] batchSize=1 throughput inconclusive");
        assertThat(r.anyWorse()).isTrue();
    }

    @Test
    void aMetricWhoseMeanChangesSignGetsNoRatio() throws BenchException {
        // mem.native.model is RSS after load minus before: below zero for a tiny model
        Comparer.Report r = Comparer.compare(List.of(modeCell("sample", "mem.native.model", "MB", -0.5)),
                List.of(modeCell("sample", "mem.native.model", "MB", 0.5)), 0.03, 0.99);
        Comparison c = r.rows().get(0);
        assertThat(c.ratio().lower()).isNaN();
        assertThat(c.verdict()).isNotIn(Verdict.BETTER, Verdict.WORSE);
        assertThat(r.anyWorse()).isFalse();
    }

    /**
     * A/A on percentiles: two runs of the same cell (each fork's mean drawn with a 5 % spread, 2,000 calls per fork
     * spread 10 %). Forks are the unit for p50/p99 as for means, so at the 99 % confidence of the verdicts at most
     * a few in a hundred such comparisons may be flagged; the fork bootstrap used before flagged 12 % at 3 forks.
     */
    @Test
    void percentileVerdictsKeepTheirFalseAlarmRateAtFewForks() throws BenchException {
        Random random = new Random(7);
        for (int forks : new int[]{2, 3, 5}) {
            int flagged = 0;
            int trials = 200;
            for (int t = 0; t < trials; t++) {
                Comparer.Report r = Comparer.compare(List.of(percentileCell(random, forks)),
                        List.of(percentileCell(random, forks)), 0.03, Verdict.CONFIDENCE);
                flagged += (int) r.rows().stream().filter(c -> c.metric().startsWith("p"))
                        .filter(c -> c.verdict() == Verdict.BETTER || c.verdict() == Verdict.WORSE).count();
            }
            assertThat(flagged).as("%d forks: p50 and p99 flagged in %d of %d A/A comparisons", forks, flagged, 2 * trials)
                    .isLessThanOrEqualTo(2 * trials * 3 / 100);
        }
    }

    private static CellResults percentileCell(Random random, int forks) {
        StringBuilder json = new StringBuilder("[{\"benchmark\": \"b.Bench.infer\", \"mode\": \"sample\", \"forks\": ")
                .append(forks).append(", \"params\": {\"batchSize\": \"1\"}, \"primaryMetric\": {\"score\": 1, \"scoreUnit\": \"ms/op\", \"rawDataHistogram\": [");
        for (int f = 0; f < forks; f++) {
            double forkMean = Math.exp(0.05 * random.nextGaussian());
            TreeMap<Double, Integer> bins = new TreeMap<>();
            for (int i = 0; i < 2000; i++) {
                bins.merge(Math.round(forkMean * Math.exp(0.1 * random.nextGaussian()) * 1000) / 1000.0, 1, Integer::sum);
            }
            json.append(f == 0 ? "[[" : ",[[");
            json.append(bins.entrySet().stream().map(e -> "[" + e.getKey() + "," + e.getValue() + "]")
                    .collect(Collectors.joining(",")));
            json.append("]]");
        }
        json.append("]}, \"secondaryMetrics\": {}}]");
        try {
            return CellResults.of(JmhJson.read(new ByteArrayInputStream(
                    json.toString().getBytes(StandardCharsets.UTF_8)), "aa.json").get(0));
        } catch (BenchException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void outputFormatsMatchGoldenFiles() throws BenchException, IOException {
        Comparer.Report r = Comparer.compare(List.of(cell("1", 20, "avgt", "ms/op"), cell("8", 150, "avgt", "ms/op")),
                List.of(cell("1", 22, "avgt", "ms/op"), cell("16", 300, "avgt", "ms/op")), 0.03, Verdict.CONFIDENCE);
        ByteArrayOutputStream json = new ByteArrayOutputStream();
        CompareJson.write(r, json);
        matchesGolden(CompareTable.text(r), "compare.txt");
        matchesGolden(CompareTable.markdown(r), "compare.md");
        matchesGolden(CompareTable.text(r, true), "compare-all.txt");
        matchesGolden(json.toString(StandardCharsets.UTF_8), "compare.json");
        StringWriter html = new StringWriter();
        CompareHtml.write(r, "results/base", "results/head", html);
        matchesGolden(html.toString(), "compare.html");
    }

    /**
     * The page names a row's cell by what tells the cells apart (the full name is its title and, hidden, what the
     * filter matches), and a where table's differential flame graph is a link under it, not a path in the text.
     */
    @Test
    void theHtmlPageShowsShortCellNamesAndLinksTheFlameDiffOnce() throws BenchException {
        Comparer.Report r = Comparer.compare(List.of(cell("1", 20, "avgt", "ms/op"), cell("8", 150, "avgt", "ms/op")),
                List.of(cell("1", 22, "avgt", "ms/op"), cell("8", 150, "avgt", "ms/op")), 0.03, Verdict.CONFIDENCE);
        Comparison slower = r.rows().stream().filter(c -> c.gated() && c.cell().label().contains("batchSize=1"))
                .findFirst().orElseThrow();
        dev.inferbench.stats.Interval i = new dev.inferbench.stats.Interval(2, 1, 3, 0.99, 10);
        Where.Change c = new Where.Change(Where.OUTSIDE, "", 20, 22, i, new dev.inferbench.stats.Interval(1, 0.5, 2,
                0.99, 10));
        java.nio.file.Path diff = java.nio.file.Path.of("head/where/flames-diff/cell.html");
        WhereFrames frames = new WhereFrames(10, 0.95, "perf_events", List.of(c), List.of(), List.of(), List.of(),
                diff);
        Where where = new Where(10, 0.95, c, List.of(c), i, frames);
        StringWriter html = new StringWriter();
        CompareHtml.write(r, "base", "head", Map.of(slower.cell(), where), html);
        String page = html.toString();

        assertThat(page).contains("<tr><td><span title=\"infer batchSize=1 engine=ort\">infer batchSize=1</span>"
                + "<span hidden> infer batchSize=1 engine=ort</span></td><td>time</td>");
        assertThat(page).contains("<h2>Where: infer batchSize=1</h2>")
                .contains("differential flame graph of the passes</a>")
                .doesNotContain("differential flame graph of the passes (head against base; red: hotter in head): ");
        assertThat(page.split(java.util.regex.Pattern.quote(diff.toAbsolutePath().toUri().toString()), -1)).hasSize(2);
    }

    /**
     * {@code -Dgolden.update=true} writes the actual output over the golden file instead (then read the diff before
     * committing it): a format change is reviewed as a change of the golden file, never typed by hand.
     */
    static void matchesGolden(String actual, String name) throws IOException {
        if (Boolean.getBoolean("golden.update")) {
            java.nio.file.Files.writeString(java.nio.file.Path.of("src/test/resources/golden", name), actual);
        }
        assertThat(actual).isEqualTo(golden(name));
    }

    static String golden(String name) throws IOException {
        try (InputStream in = ComparerTest.class.getResourceAsStream("/golden/" + name)) {
            return in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}

package dev.inferbench.report;

import dev.inferbench.BenchException;
import dev.inferbench.compare.CellKey;
import dev.inferbench.compare.CellResults;
import dev.inferbench.compare.Comparer;
import dev.inferbench.compare.MetricSeries;
import dev.inferbench.stats.Verdict;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A one-cell compare as a default run gives it: some 30 metrics, a microsecond time in ms/op, metrics that never
 * move off 0. The default table fits a screen with what moved and one line for the rest; -v shows every row; no
 * figure is NaN and every ± is of one kind.
 */
class CompareScreenTest {
    private static final int NOISY = 25;

    /** Three forks around {@code v}, spread {@code spread} (a fraction) between forks. */
    private static MetricSeries series(String name, String unit, double v, double spread) {
        double[][] forks = new double[3][];
        for (int f = 0; f < 3; f++) {
            forks[f] = new double[]{v * (1 + spread * (f - 1))};
        }
        return MetricSeries.mean(name, unit, forks);
    }

    /** @param slower how much longer the candidate's calls take, and how much fewer samples/s it gives */
    private static CellResults cell(double slower, double p50) {
        Map<String, MetricSeries> m = new LinkedHashMap<>();
        m.put("time", series("time", "ms/op", 0.0142 * slower, 0.3));
        m.put("p50", series("p50", "ms/op", p50, 0.0001));
        m.put("samples", series("samples", "samples/s", 70_000 / slower, 0.002));
        m.put("gc.count", series("gc.count", "counts", 0, 0));
        for (int i = 0; i < NOISY; i++) {
            m.put("noise." + i, series("noise." + i, "MiB", 10 + i, 0.2));
        }
        return new CellResults(new CellKey("b.InferenceBenchmark.infer", Map.of("batchSize", "1", "model", "mlp-tiny")),
                "sample", m);
    }

    private static Comparer.Report report() throws BenchException {
        return Comparer.compare(List.of(cell(1, 0.0028)), List.of(cell(1.2, 0.00280001)), 0.03, Verdict.CONFIDENCE);
    }

    @Test
    void theDefaultTableFitsAScreenWithOneLineForTheRest() throws BenchException {
        Comparer.Report r = report();
        assertThat(r.rows()).hasSize(4 + NOISY);
        for (String table : List.of(CompareTable.text(r), CompareTable.markdown(r))) {
            assertThat(table.lines()).as(table).hasSizeLessThanOrEqualTo(15);
            assertThat(table).doesNotContain("NaN").doesNotContain("noise.").doesNotContain("gc.count")
                    .contains("27 more metrics: 26 within noise, 1 without a ratio interval; -v shows all\n")
                    .contains("time").contains("samples").contains("± = half each side's 99% interval, in the row's unit");
            assertThat(table.lines().filter(l -> l.contains("more metric"))).hasSize(1);
        }
    }

    @Test
    void everyFigureHasOneKindOfPlusMinusAndAUnitThatFitsIt() throws BenchException {
        String all = CompareTable.text(report(), true);
        // each ± is a half-width in the row's unit: never a percentage, never a word where a number fits
        assertThat(all).doesNotContainPattern("±\\s?-?[0-9.]+%").doesNotContain("NaN");
        assertThat(all.lines().filter(l -> l.contains("±")).count()).isEqualTo(2 + 4 + NOISY); // the header, every row, the footer line that says what ± is
        String time = all.lines().filter(l -> l.contains(" time ")).findFirst().orElseThrow();
        assertThat(time).contains("µs/op").contains("14.20 ±").contains("17.04 ±");
        // 2.8 µs against 2.80001 µs: as many digits as it takes for the two to differ
        String p50 = all.lines().filter(l -> l.contains(" p50 ")).findFirst().orElseThrow();
        assertThat(p50).contains("µs/op").contains("2.80000 ±").contains("2.80001 ±");
        String gc = all.lines().filter(l -> l.contains(" gc.count ")).findFirst().orElseThrow();
        assertThat(gc).contains("0 ±0").contains("n/a: 0 on both sides");
    }

    @Test
    void minusVShowsEveryRowAndJsonAndHtmlKeepThemAll() throws BenchException, IOException {
        Comparer.Report r = report();
        String all = CompareTable.text(r, true);
        ByteArrayOutputStream json = new ByteArrayOutputStream();
        CompareJson.write(r, json);
        StringWriter html = new StringWriter();
        CompareHtml.write(r, "a", "b", html);
        for (String out : List.of(all, CompareTable.markdown(r, true), json.toString(StandardCharsets.UTF_8),
                html.toString())) {
            assertThat(out).doesNotContain("more metrics").doesNotContain("-v shows all");
            for (var row : r.rows()) {
                assertThat(out).contains(row.metric());
            }
        }
        assertThat(all.lines()).hasSize(1 + r.rows().size() + 4);
    }
}

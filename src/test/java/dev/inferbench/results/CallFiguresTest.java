package dev.inferbench.results;

import dev.inferbench.BenchException;
import dev.inferbench.report.SummaryTable;
import dev.inferbench.results.jmh.JmhMetric;
import dev.inferbench.results.jmh.MeasuredCell;
import dev.inferbench.stats.Percentiles;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The latency figures of a cell's calls: the fastest, their spread, and the percentiles a user chooses. */
class CallFiguresTest {
    /** A SampleTime cell of 1,000 calls of 1 to 1,000 µs, the odd ones in one fork, the even ones in the other. */
    private static MeasuredCell cell() {
        List<List<double[]>> forks = new ArrayList<>();
        for (int f = 0; f < 2; f++) {
            double[] bins = new double[1000];
            for (int i = 0; i < 500; i++) {
                bins[2 * i] = 2 * i + 1 + f;
                bins[2 * i + 1] = 1;
            }
            forks.add(List.of(bins));
        }
        JmhMetric primary = new JmhMetric(500.5, Double.NaN, new double[]{Double.NaN, Double.NaN}, new TreeMap<>(),
                "us/op", List.of(), forks);
        return new MeasuredCell("dev.inferbench.bench.InferenceBenchmark.infer", "sample", 1, 2,
                Map.of("model", "m"), primary, Map.of(), Map.of());
    }

    @Test
    void theFastestCallAndTheSpreadOfTheCallsAllForksPooled() {
        CellSummary s = CellSummary.of(cell());
        assertThat(s.extras().get(CellSummary.MIN)).isEqualTo(1);
        // 1..n has the sample standard deviation sqrt(n (n + 1) / 12)
        assertThat(s.extras().get(CellSummary.SD)).isCloseTo(Math.sqrt(1000 * 1001 / 12.0), within(1e-9));
        assertThat(s.extras()).containsEntry("p50", 500.0).containsEntry("p95", 950.0).containsEntry("p99", 990.0);
    }

    @Test
    void chosenPercentilesComeFromTheCallsAndSayNaWithTooFewBehindThem() throws BenchException {
        CellSummary s = CellSummary.of(cell(), Percentiles.parseList("90,99.9,97.5"));
        assertThat(s.extras()).containsEntry("p90", 900.0).containsEntry("p97.5", 975.0).doesNotContainKey("p95");
        assertThat(s.extras().get("p99.9")).isNaN(); // 10,000 calls needed
        String table = SummaryTable.render(List.of(s));
        assertThat(table.lines().findFirst().orElseThrow())
                .containsSubsequence("min", "p90", "p97.5", "p99.9", "max", "mean", "sd", "forks")
                .doesNotContain("p50");
        assertThat(table).contains("975.0 µs").contains("288.8 µs");
    }

    /** JMH writes a SampleTime cell's percentiles as secondary entries too (p0.50, p0.99): they are no columns. */
    @Test
    void jmhsOwnPercentileEntriesAreNotColumns() {
        MeasuredCell c = cell();
        JmhMetric entry = new JmhMetric(500, Double.NaN, new double[]{Double.NaN, Double.NaN}, new TreeMap<>(), "us/op",
                List.of(List.of(500.0)), List.of());
        CellSummary s = CellSummary.of(new MeasuredCell(c.benchmark(), c.mode(), 1, 2, c.params(), c.primary(),
                Map.of("p0.50", entry, "p0.99", entry), Map.of()));
        assertThat(SummaryTable.render(List.of(s)).lines().findFirst().orElseThrow())
                .contains("p50", "p95", "p99").doesNotContain("p0.50", "p0.99");
    }

    @Test
    void aModeThatTimesNoSingleCallHasNoMinOrSd() {
        MeasuredCell c = cell();
        JmhMetric avg = new JmhMetric(5, Double.NaN, new double[]{Double.NaN, Double.NaN}, new TreeMap<>(), "us/op",
                List.of(List.of(4.0, 6.0)), List.of());
        CellSummary s = CellSummary.of(new MeasuredCell(c.benchmark(), "avgt", 1, 1, c.params(), avg, Map.of(), Map.of()));
        assertThat(s.extras()).doesNotContainKeys(CellSummary.MIN, CellSummary.SD);
        assertThat(SummaryTable.render(List.of(s)).lines().findFirst().orElseThrow()).doesNotContain("min").doesNotContain(" sd ");
    }

    @Test
    void badPercentilesAreRefusedInOneLine() {
        assertThatThrownBy(() -> Percentiles.parseList("50,100")).hasMessage("--percentiles '50,100': '100' is not a "
                + "percentile; expected numbers above 0 and below 100, separated by commas, e.g. 50,90,99.9");
        assertThatThrownBy(() -> Percentiles.parseList("p99")).hasMessageContaining("'p99' is not a percentile");
        assertThatThrownBy(() -> Percentiles.parseList("50,,99")).hasMessageContaining("'' is not a percentile");
        assertThatThrownBy(() -> Percentiles.parseList("99,99")).hasMessageContaining("names 99 twice");
        assertThat(Percentiles.label(99.9)).isEqualTo("p99.9");
        assertThat(Percentiles.label(50)).isEqualTo("p50");
    }
}

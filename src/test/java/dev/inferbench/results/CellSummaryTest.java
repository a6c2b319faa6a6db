package dev.inferbench.results;

import dev.inferbench.report.SummaryTable;
import dev.inferbench.results.jmh.MeasuredCell;
import dev.inferbench.results.jmh.JmhMetric;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

class CellSummaryTest {

    private static MeasuredCell cell(String mode, double ms) {
        JmhMetric m = new JmhMetric(ms, 0, new double[]{ms, ms}, new TreeMap<>(), "ms/op",
                List.of(List.of(ms, ms), List.of(ms, ms)), List.of());
        return new MeasuredCell("dev.inferbench.bench.InferenceBenchmark.infer", mode, 1, 2, Map.of("model", "m"), m,
                Map.of(), Map.of());
    }

    /** A run of one cell in two modes (-bm avgt,sample) gives two rows: each names its mode. */
    @Test
    void aCellMeasuredInSeveralModesNamesEachMode() {
        List<CellSummary> two = CellSummary.of(List.of(cell("avgt", 1.0), cell("sample", 1.3)));
        assertThat(two).extracting(CellSummary::benchmark)
                .containsExactly("InferenceBenchmark.infer [avgt]", "InferenceBenchmark.infer [sample]");
        assertThat(SummaryTable.render(two)).contains("InferenceBenchmark.infer [avgt]")
                .contains("InferenceBenchmark.infer [sample]");
        assertThat(CellSummary.of(List.of(cell("sample", 1.3)))).extracting(CellSummary::benchmark)
                .containsExactly("InferenceBenchmark.infer");
    }
}

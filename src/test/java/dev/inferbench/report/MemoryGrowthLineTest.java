package dev.inferbench.report;

import dev.inferbench.results.CellSummary;
import dev.inferbench.stats.Interval;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class MemoryGrowthLineTest {

    private static CellSummary cell(double growth, double hw, double grownMb, double early, double earlyHw) {
        return new CellSummary("InferenceBenchmark.infer", Map.of("model", "m", "engine", "ort", "batchSize", "1"),
                "ms/op", 1, 2, new Interval(1, 0.9, 1.1, 0.95, 3), 10,
                Map.of("mem.rss.growth", growth, "mem.rss.growth.hw", hw, "mem.rss.grown", grownMb,
                        "mem.rss.grown.early", early, "mem.rss.grown.early.hw", earlyHw));
    }

    @Test
    void growthAboveZeroInTheLaterHalfAndAboveTheFloorIsNamed() {
        assertThat(SummaryTable.growth(List.of(cell(0.0096, 0.0001, 150, 149, 2)))).isEqualTo("memory: m on ort,"
                + " batch 1: the resident set grows 0.0096 ± 0.0001 MiB per 10,000 calls in the later half of the"
                + " measured calls (150.0 MiB over it; earlier half 149.0 MiB), 3 forks (a leak, or a warm-up longer"
                + " than the run)\n");
        assertThat(SummaryTable.growth(List.of(cell(0.5, 0.6, 150, 0, 1)))).as("interval holds 0").isEmpty();
        assertThat(SummaryTable.growth(List.of(cell(25, 3, 0.1, 0, 1)))).as("a tenth of a MiB over the half: page noise")
                .isEmpty();
    }

    @Test
    void growthThatStopsIsWarmUp() {
        assertThat(SummaryTable.growth(List.of(cell(0.1, 0.3, 0.05, 40, 3)))).isEqualTo("memory: m on ort, batch 1: the"
                + " resident set grew 40.00 ± 3.000 MiB in the earlier half of the measured calls and then held (0.1000"
                + " ± 0.3000 MiB per 10,000 calls after), 3 forks: warm-up, not a leak\n");
    }

    @Test
    void oneForkSaysWhyItIsNotJudged() {
        assertThat(SummaryTable.growth(List.of(cell(5, Double.NaN, 3, 1, Double.NaN), cell(5, Double.NaN, 3, 1,
                Double.NaN)))).isEqualTo("memory: growth with calls not judged for 2 cells: one fork (an interval needs"
                + " 2 or more forks)\n");
    }
}

package dev.inferbench.report;

import dev.inferbench.results.CellSummary;
import dev.inferbench.stats.Interval;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class MemoryGrowthLineTest {

    private static CellSummary cell(double growth, double hw, double grownMb) {
        return new CellSummary("InferenceBenchmark.infer", Map.of("model", "m", "engine", "ort", "batchSize", "1"),
                "ms/op", 1, 2, new Interval(1, 0.9, 1.1, 0.95, 3), 10,
                Map.of("mem.rss.growth", growth, "mem.rss.growth.hw", hw, "mem.rss.grown", grownMb));
    }

    @Test
    void onlyGrowthAboveZeroInEveryForksIntervalAndAboveTheFloorIsNamed() {
        assertThat(SummaryTable.growth(List.of(cell(0.0096, 0.0001, 150)))).isEqualTo("memory: m on ort, batch 1: the"
                + " resident set grows 0.0096 ± 0.0001 MiB per 10,000 calls over 3 forks (a leak, or a warm-up longer"
                + " than the run)\n");
        assertThat(SummaryTable.growth(List.of(cell(0.5, 0.6, 150)))).as("interval holds 0").isEmpty();
        assertThat(SummaryTable.growth(List.of(cell(25, 3, 0.1)))).as("a tenth of a MB per iteration: page noise")
                .isEmpty();
        assertThat(SummaryTable.growth(List.of(cell(Double.NaN, Double.NaN, Double.NaN)))).as("fewer than 3 iterations")
                .isEmpty();
    }
}

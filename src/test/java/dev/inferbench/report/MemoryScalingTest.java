package dev.inferbench.report;

import dev.inferbench.results.CellSummary;
import dev.inferbench.stats.Interval;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class MemoryScalingTest {

    private static CellSummary cell(String model, int batch, double peakMib) {
        return new CellSummary("InferenceBenchmark.infer", Map.of("model", model, "engine", "ort",
                "batchSize", Integer.toString(batch)), "ms/op", 1, 2, new Interval(1, 0.9, 1.1, 0.95, 3), 10,
                Map.of("mem.rss.peak", peakMib));
    }

    /** The steady resident set where a cell has it: the peak holds the model load's transient. */
    @Test
    void theSteadyResidentSetIsFittedWhereACellHasIt() {
        CellSummary c = new CellSummary("b", Map.of("batchSize", "1"), "ms/op", 1, 2,
                new Interval(1, 0.9, 1.1, 0.95, 3), 10, Map.of("mem.rss.peak", 700.0, "mem.rss", 600.0));
        assertThat(MemoryScaling.peak(c)).isEqualTo(600.0);
    }

    @Test
    void theFitSeparatesWhatGrowsWithTheBatchFromWhatDoesNot() {
        MemoryScaling.Fit f = MemoryScaling.fit(new double[]{1, 2, 4, 8, 16}, new double[]{312, 324, 348, 396, 492});
        assertThat(f.perSample()).isCloseTo(12.0, within(1e-9));
        assertThat(f.fixed()).isCloseTo(300.0, within(1e-9));
    }

    @Test
    void aLineOfConstantStepsIsLinearAndConstant() {
        List<String> lines = MemoryScaling.lines(List.of(cell("a", 16, 492), cell("a", 1, 312), cell("a", 8, 396),
                cell("b", 1, 100)));
        assertThat(lines).containsExactly("memory: a on ort: 12.00 MiB per sample + 300.0 MiB fixed (resident set"
                + " by batch 1: 312.0, 8: 396.0, 16: 492.0 MiB; linear: every batch within 0.0 % of the line; per added"
                + " sample 1 to 8: 12.00, 8 to 16: 12.00 MiB, constant)");
    }

    @Test
    void aPeakThatJumpsIsNotLinearNorConstant() {
        // the arena doubles at batch 8: the per-sample cost is not one number
        String line = MemoryScaling.lines(List.of(cell("a", 1, 300), cell("a", 4, 310), cell("a", 8, 600))).get(0);
        assertThat(line).contains("not linear: a batch").contains("1 to 4: 3.333, 4 to 8: 72.50 MiB, not constant");
    }

    @Test
    void twoBatchSizesGiveTheLineWithoutAVerdict() {
        assertThat(MemoryScaling.lines(List.of(cell("a", 1, 300), cell("a", 8, 370))))
                .containsExactly("memory: a on ort: 10.00 MiB per sample + 290.0 MiB fixed (resident set by batch"
                        + " 1: 300.0, 8: 370.0 MiB; two batch sizes: a line through both, linearity not checked)");
    }

    @Test
    void memoryThatDoesNotGrowWithTheBatchGetsNoLine() {
        assertThat(MemoryScaling.lines(List.of(cell("tiny", 1, 106.7), cell("tiny", 4, 105.9)))).isEmpty();
    }
}

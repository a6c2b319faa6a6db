package dev.inferbench.report;

import dev.inferbench.findings.MemoryScaling;
import dev.inferbench.results.CellSummary;
import dev.inferbench.stats.Interval;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class MemoryScalingTest {

    /** A cell's steady set: {@code rss} MiB, ± {@code hw} over 16 forks. */
    private static CellSummary cell(String model, int batch, double rss, double hw) {
        return new CellSummary("InferenceBenchmark.infer", Map.of("model", model, "engine", "ort",
                "batchSize", Integer.toString(batch)), "ms/op", 1, 2, new Interval(1, 0.9, 1.1, 0.95, 16), 10,
                Map.of("mem.rss", rss, "mem.rss.hw", hw));
    }

    private static CellSummary cell(String model, int batch, double rss) {
        return cell(model, batch, rss, 1.0);
    }

    /** The steady resident set where a cell has it, with its interval: the peak holds the model load's transient. */
    @Test
    void theSteadyResidentSetIsFittedWhereACellHasIt() {
        CellSummary c = new CellSummary("b", Map.of("batchSize", "1"), "ms/op", 1, 2,
                new Interval(1, 0.9, 1.1, 0.95, 3), 10, Map.of("mem.rss.peak", 700.0, "mem.rss", 600.0, "mem.rss.hw", 4.0));
        assertThat(MemoryScaling.steady(c)).isEqualTo(new Interval(600.0, 596.0, 604.0, 0.95, 3));
    }

    @Test
    void aLineOfConstantStepsIsLinearAndConstant() {
        List<String> lines = BatchFindings.memory(List.of(cell("a", 16, 492), cell("a", 1, 312), cell("a", 8, 396),
                cell("b", 1, 100)));
        assertThat(lines).containsExactly("memory: a on ort: 12.00 [11.91, 12.09] MiB per sample + 300.0 MiB fixed"
                + " (resident set by batch 1: 312.0, 8: 396.0, 16: 492.0 MiB; linear: every batch within 0 % of the"
                + " batch effect (180.0 MiB from batch 1 to 16) of the line; per added sample 1 to 8: 12.00, 8 to 16:"
                + " 12.00 MiB, constant)");
    }

    /**
     * bert_base on ort as docs/metrics.md quotes it: within 2.4 % of the whole set of the line, so a rule judged against
     * the whole set called it linear, while the set fell from batch 1 to 4; against what the batch adds it is 23 % off.
     */
    @Test
    void aSetThatFallsWithTheBatchIsNotLinear() {
        String line = BatchFindings.memory(List.of(cell("bert_base", 1, 658.0), cell("bert_base", 2, 657.3),
                cell("bert_base", 4, 647.0), cell("bert_base", 8, 681.3), cell("bert_base", 16, 721.1))).get(0);
        assertThat(line).contains("not linear: batch 4 is 23 % of the batch effect (69.30 MiB from batch 1 to 16) off"
                + " the line").contains("1 to 2: -0.7000, 2 to 4: -5.150").contains("not constant: the set fell or held"
                + " between two batches").doesNotContain("; linear");
    }

    @Test
    void aPeakThatJumpsIsNotLinearNorConstant() {
        // the arena doubles at batch 8: the per-sample cost is not one number
        String line = BatchFindings.memory(List.of(cell("a", 1, 300), cell("a", 4, 310), cell("a", 8, 600))).get(0);
        assertThat(line).contains("not linear: batch 4").contains("1 to 4: 3.333, 4 to 8: 72.50 MiB, not constant");
    }

    /** Two batch sizes over 16 forks each: the slope's interval from the cells' own (a line through 2 points has no scatter). */
    @Test
    void twoBatchSizesGiveTheLineAndItsIntervalWithoutALinearityVerdict() {
        // se of each cell 2.131 / t(15) = 1.0 MiB; slope se sqrt(2) / 7; t(15) 2.131: ± 0.4306
        assertThat(BatchFindings.memory(List.of(cell("a", 1, 300, 2.131), cell("a", 8, 370, 2.131))))
                .containsExactly("memory: a on ort: 10.00 [9.569, 10.43] MiB per sample + 290.0 MiB fixed (resident"
                        + " set by batch 1: 300.0, 8: 370.0 MiB; two batch sizes: a line through both, linearity not"
                        + " checked)");
    }

    @Test
    void memoryThatDoesNotGrowWithTheBatchGetsNoLine() {
        assertThat(BatchFindings.memory(List.of(cell("tiny", 1, 106.7), cell("tiny", 4, 105.9)))).isEmpty();
    }
}

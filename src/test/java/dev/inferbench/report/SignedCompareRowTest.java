package dev.inferbench.report;

import dev.inferbench.compare.CellKey;
import dev.inferbench.compare.Comparison;
import dev.inferbench.compare.ForkPairs;
import dev.inferbench.stats.Direction;
import dev.inferbench.stats.Interval;
import dev.inferbench.stats.Verdict;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A figure that is around 0 either way (a flat memory growth rate) has no relative error and no ratio: compare gives
 * its half-width as every row does, in the row's unit, no change and, instead of a ratio, why there is none; a
 * percentage would read "-1565 ±100.6%" and "-100.5%" for a default resnet50 run.
 */
class SignedCompareRowTest {

    @Test
    void aFigureAroundZeroGetsItsHalfWidthAndNoChange() {
        Interval base = new Interval(-1565, -3140, 10, 0.99, 16);
        Interval cand = new Interval(8.1, 2.0, 14.2, 0.99, 16);
        Comparison r = new Comparison(new CellKey("b.InferenceBenchmark.infer", Map.of("batchSize", "1")),
                "mem.rss.growth", "MiB/10k calls", Direction.LOWER_IS_BETTER, false, base, cand,
                new Interval(-0.005, Double.NaN, Double.NaN, 0.99, 16), Verdict.INCONCLUSIVE, null, ForkPairs.NONE);
        assertThat(CompareTable.cells(r, "infer", UnaryOperator.identity()))
                .containsSubsequence("-1565 ±1575", "8.100 ±6.10", "n/a", "n/a: below 0 in the baseline");
    }
}

package dev.inferbench.compare;

import dev.inferbench.stats.Direction;
import dev.inferbench.stats.Interval;
import dev.inferbench.stats.Verdict;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CI gate's promise, by simulation with known truth at the production settings (99 %, minimum effect 3 %):
 * an A/A comparison fails the gate in at most 1 % of comparisons, whether the gate is the primary metric of every
 * cell or twelve metrics of every cell, because the gate family shares one error rate (Bonferroni). The rows outside
 * the gate keep their own 99 % verdicts, and ORing those is what flagged several percent before.
 */
class GateFamilyTest {
    private static final int CELLS = 4;
    private static final int METRICS = 12;
    private static final int FORKS = 5;
    /** Fork-to-fork spread of every metric: large enough that the 3 % minimum effect alone does not hide noise. */
    private static final double NOISE = 0.04;
    private static final int TRIALS = 1500;

    /** A run of CELLS cells of METRICS lower-is-better metrics, fork means drawn around 100 * (1 + shift). */
    private static List<CellResults> run(Random random, double shift) {
        List<CellResults> cells = new ArrayList<>();
        for (int c = 0; c < CELLS; c++) {
            Map<String, MetricSeries> metrics = new LinkedHashMap<>();
            for (int m = 0; m < METRICS; m++) {
                String name = m == 0 ? "time" : "p" + m;
                double[][] forks = new double[FORKS][];
                for (int f = 0; f < FORKS; f++) {
                    // p-named metrics are time-like (lower is better) in the catalogue, so every row has a direction
                    forks[f] = new double[]{100 * (1 + (m == 0 ? shift : 0)) * (1 + NOISE * random.nextGaussian())};
                }
                metrics.put(name, MetricSeries.mean(name, "ms/op", forks));
            }
            cells.add(new CellResults(new CellKey("b.Bench.infer", Map.of("cell", Integer.toString(c))), "avgt", metrics));
        }
        return cells;
    }

    private static double[] rates(Set<String> gate, double shift) throws Exception {
        Random random = new Random(20261123L);
        int gateFailed = 0;
        int anyRowWorse = 0;
        for (int t = 0; t < TRIALS; t++) {
            Comparer.Report r = Comparer.compare(run(random, 0), run(random, shift), 0.03, Verdict.CONFIDENCE, gate);
            gateFailed += r.anyWorse() ? 1 : 0;
            anyRowWorse += r.rows().stream().anyMatch(c -> c.verdict() == Verdict.WORSE) ? 1 : 0;
        }
        return new double[]{gateFailed / (double) TRIALS, anyRowWorse / (double) TRIALS};
    }

    @Test
    void anAaComparisonFailsThePrimaryGateAtMostOnePercentOfTheTime() throws Exception {
        double[] r = rates(Comparer.PRIMARY_ONLY, 0);
        assertThat(r[0]).as("A/A gate failures, primary metric of %d cells", CELLS).isLessThanOrEqualTo(0.01);
        // the rows of all 12 metrics ORed, as --fail-on-regression did before: several times the gate's rate
        assertThat(r[1]).as("A/A comparisons with any row 'worse'").isGreaterThan(0.03);
    }

    @Test
    void aGateOfTwelveMetricsStillErrsAtMostOnePercent() throws Exception {
        Set<String> all = new java.util.TreeSet<>();
        for (int m = 0; m < METRICS; m++) {
            all.add(m == 0 ? "time" : "p" + m);
        }
        assertThat(rates(all, 0)[0]).as("A/A gate failures, %d metrics x %d cells", METRICS, CELLS)
                .isLessThanOrEqualTo(0.01);
    }

    @Test
    void aTenPercentSlowdownOfTheTimeIsCaught() throws Exception {
        // the price of the family's shared error rate: 99.75 % intervals at 5 forks a side and 4 % fork noise
        assertThat(rates(Comparer.PRIMARY_ONLY, 0.10)[0]).as("power against a 10 % slowdown of every cell's time")
                .isGreaterThan(0.7);
    }

    @Test
    void theFamilySplitsTheErrorRateOverItsRows() throws Exception {
        Random random = new Random(1);
        Comparer.Report one = Comparer.compare(run(random, 0), run(random, 0), 0.03, 0.99, Comparer.PRIMARY_ONLY);
        assertThat(one.family()).isEqualTo(CELLS);
        assertThat(one.gateConfidence()).isCloseTo(1 - 0.01 / CELLS, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(one.rows().stream().filter(Comparison::gated).map(Comparison::metric)).containsOnly("time");
        Comparer.Report two = Comparer.compare(run(random, 0), run(random, 0), 0.03, 0.99, Set.of("time", "p1"));
        assertThat(two.family()).isEqualTo(2 * CELLS);
        assertThat(two.rows().stream().filter(c -> !c.gated()).map(Comparison::gateVerdict)).containsOnlyNulls();
    }

    /** Log-symmetric verdicts: a change and its inverse get mirrored verdicts, whichever way a metric points. */
    @Test
    void verdictsAreSymmetricInLogSpace() {
        double m = 0.03;
        for (double r : new double[]{1.031, 1.05, 1.2}) {
            Interval up = new Interval(r, r * 0.999, r * 1.001, 0.99, 5);
            Interval down = new Interval(1 / r, 1 / r * 0.999, 1 / r * 1.001, 0.99, 5);
            assertThat(Verdict.of(up, Direction.LOWER_IS_BETTER, m)).isEqualTo(Verdict.WORSE);
            assertThat(Verdict.of(down, Direction.LOWER_IS_BETTER, m)).as("1/%s", r).isEqualTo(Verdict.BETTER);
            assertThat(Verdict.of(up, Direction.HIGHER_IS_BETTER, m)).isEqualTo(Verdict.BETTER);
            assertThat(Verdict.of(down, Direction.HIGHER_IS_BETTER, m)).as("1/%s", r).isEqualTo(Verdict.WORSE);
        }
        // just inside the band either way: 1/1.029 is as small a change as 1.029
        for (double r : new double[]{1.029, 1 / 1.029}) {
            Interval i = new Interval(r, r * 0.9999, r * 1.0001, 0.99, 5);
            assertThat(Verdict.of(i, Direction.LOWER_IS_BETTER, m)).as("%s", r).isEqualTo(Verdict.SAME);
            assertThat(Verdict.of(i, Direction.HIGHER_IS_BETTER, m)).as("%s", r).isEqualTo(Verdict.SAME);
        }
    }
}

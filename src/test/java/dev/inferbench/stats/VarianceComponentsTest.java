package dev.inferbench.stats;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class VarianceComponentsTest {

    @Test
    void recoversTheComponentsOfSimulatedData() {
        VarianceComponents truth = new VarianceComponents(50, 4.0, 1.0, 0, 0);
        double[][] cell = Power.simulate(truth, 50, 400, 20, new SplittableRandom(4));
        VarianceComponents vc = VarianceComponents.of(cell);
        assertThat(vc.mean()).isCloseTo(50, within(0.3));
        assertThat(vc.betweenFork()).isCloseTo(4.0, within(0.6));
        assertThat(vc.withinFork()).isCloseTo(1.0, within(0.05));
        assertThat(vc.iterations()).isEqualTo(20.0);
        assertThat(vc.forkShare()).isCloseTo(0.8, within(0.05));
    }

    @Test
    void handComputedAnova() {
        // fork means 2 and 4, grand 3; within: ss = 4 * 0.25... = (0.25+0.25)*2 = 1 over 2 df -> 0.5
        // between: ms = 2 * ((2-3)^2 + (4-3)^2) / 1 = 4; sigma_fork^2 = (4 - 0.5) / 2 = 1.75
        VarianceComponents vc = VarianceComponents.of(new double[][]{{1.5, 2.5}, {3.5, 4.5}});
        assertThat(vc.withinFork()).isCloseTo(0.5, within(1e-12));
        assertThat(vc.betweenFork()).isCloseTo(1.75, within(1e-12));
    }

    /**
     * Unequal iterations per fork (a fork that timed out of an iteration, a resumed run with other settings): the
     * ANOVA's unequal-n path, worked by hand. Forks {1, 3}, {4, 6, 8}, {10}: grand mean 32/6, fork means 2, 6, 10;
     * ss within 10 over 6 - 3 df; ss between 2(2 - 16/3)^2 + 3(6 - 16/3)^2 + (10 - 16/3)^2 = 136/3 over 2 df;
     * n0 = (6 - (4 + 9 + 1)/6) / 2 = 11/6; sigma_fork^2 = (68/3 - 10/3) / (11/6) = 116/11.
     */
    @Test
    void handComputedAnovaWithUnequalIterations() {
        VarianceComponents vc = VarianceComponents.of(new double[][]{{1, 3}, {4, 6, 8}, {10}});
        assertThat(vc.mean()).isCloseTo(32.0 / 6, within(1e-12));
        assertThat(vc.withinFork()).isCloseTo(10.0 / 3, within(1e-12));
        assertThat(vc.iterations()).isCloseTo(11.0 / 6, within(1e-12));
        assertThat(vc.betweenFork()).isCloseTo(116.0 / 11, within(1e-12));
    }

    /** On average over many cells of unequal forks the estimators find the components they were drawn from. */
    @Test
    void unequalIterationsStillRecoverTheComponents() {
        SplittableRandom rng = new SplittableRandom(11);
        int[] iterations = {2, 3, 5, 8, 4, 2};
        double between = 0;
        double within = 0;
        int cells = 4000;
        for (int c = 0; c < cells; c++) {
            double[][] forks = new double[iterations.length][];
            for (int f = 0; f < forks.length; f++) {
                double forkMean = 20 + 0.6 * gaussian(rng);
                forks[f] = new double[iterations[f]];
                for (int i = 0; i < iterations[f]; i++) {
                    forks[f][i] = forkMean + 0.2 * gaussian(rng);
                }
            }
            VarianceComponents vc = VarianceComponents.of(forks);
            between += vc.betweenFork();
            within += vc.withinFork();
        }
        // truth 0.36 and 0.04; the mean of 4,000 estimates is within a few % (clamping at 0 adds a little)
        assertThat(between / cells).isCloseTo(0.36, within(0.36 * 0.05));
        assertThat(within / cells).isCloseTo(0.04, within(0.04 * 0.03));
    }

    private static double gaussian(SplittableRandom rng) {
        return Math.sqrt(-2 * Math.log(1 - rng.nextDouble())) * Math.cos(2 * Math.PI * rng.nextDouble());
    }

    @Test
    void negativeBetweenEstimateIsZero() {
        VarianceComponents vc = VarianceComponents.of(new double[][]{{1, 3}, {1, 3}, {1, 3}});
        assertThat(vc.betweenFork()).isZero();
        assertThat(vc.withinFork()).isCloseTo(2.0, within(1e-12));
    }

    @Test
    void optimalSplitPrefersForksWhenForksDifferAndIterationsWhenTheyDoNot() {
        // forks cost 10 s, iterations 1 s, 120 s per cell
        ForksAndIterations forky = ForksAndIterations.optimal(new VarianceComponents(20, 1.0, 0.01, 0, 0), 10, 1, 120, 50);
        ForksAndIterations flat = ForksAndIterations.optimal(new VarianceComponents(20, 0.0001, 1.0, 0, 0), 10, 1, 120, 50);
        assertThat(forky.iterations()).isLessThanOrEqualTo(2);
        assertThat(forky.forks()).isGreaterThanOrEqualTo(10);
        // not all iterations in three forks: the t quantile of few forks costs more than the spare iterations buy
        assertThat(flat.iterations()).isGreaterThanOrEqualTo(5 * forky.iterations());
        assertThat(flat.forks()).isLessThan(forky.forks());
        assertThat(forky.seconds()).isLessThanOrEqualTo(120);
        // no other split of the budget does better
        for (int n = 1; n <= 50; n++) {
            int k = (int) (120 / (10 + n));
            if (k >= ForksAndIterations.MIN_FORKS) {
                assertThat(ForksAndIterations.of(new VarianceComponents(20, 1.0, 0.01, 0, 0), k, n, 10, 1).relativeError())
                        .isGreaterThanOrEqualTo(forky.relativeError());
            }
        }
    }

    @Test
    void withAGenerousBudgetTheSplitIsTheClosedFormOptimum() {
        // n* = sqrt(forkCost sigma_iter^2 / (iterationCost sigma_fork^2)), from the cost and variance alone (Kalibera
        // & Jones); the code searches a grid by the t interval's width, so with many forks (t barely moves) the two
        // must meet, within the grid's rounding
        double[][] cases = {{10, 1, 1.0, 25.0}, {5, 0.5, 0.04, 1.0}, {30, 2, 0.25, 0.25}, {2, 1, 1.0, 0.01}};
        for (double[] c : cases) {
            VarianceComponents vc = new VarianceComponents(20, c[2], c[3], 0, 0);
            double ideal = Math.sqrt(c[0] * c[3] / (c[1] * c[2]));
            ForksAndIterations s = ForksAndIterations.optimal(vc, c[0], c[1], 100_000, 200);
            assertThat((double) s.iterations()).as(java.util.Arrays.toString(c)).isCloseTo(Math.max(1, ideal),
                    within(Math.max(1.0, 0.1 * ideal)));
        }
    }

    @Test
    void aSplitsPromisedErrorIsWhatSimulatedRunsOfThatSplitGet() {
        // the relative half-width ForksAndIterations.of promises against the mean half-width of 95 % fork intervals of 2,000
        // simulated runs of k forks x n iterations drawn from the same components
        VarianceComponents vc = new VarianceComponents(20, 0.6 * 0.6, 0.5 * 0.5, 0, 0);
        SplittableRandom rng = new SplittableRandom(21);
        for (int[] kn : new int[][]{{5, 4}, {12, 2}, {20, 10}}) {
            ForksAndIterations promised = ForksAndIterations.of(vc, kn[0], kn[1], 10, 1);
            double sum = 0;
            int covered = 0;
            int runs = 2000;
            for (int r = 0; r < runs; r++) {
                Interval ci = ForkMeans.interval(Power.simulate(vc, vc.mean(), kn[0], kn[1], rng),
                        ForkMeans.DEFAULT_CONFIDENCE);
                sum += ci.halfWidth() / vc.mean();
                covered += ci.lower() <= vc.mean() && vc.mean() <= ci.upper() ? 1 : 0;
            }
            // E[s] < sigma (c4 = 0.94 at 5 forks, 0.98 at 12): the simulated width is a little below the promise
            assertThat(sum / runs).as("k=%d n=%d", kn[0], kn[1]).isBetween(promised.relativeError() * 0.88,
                    promised.relativeError() * 1.02);
            assertThat(covered / (double) runs).isBetween(0.93, 0.97);
        }
    }
}

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

    @Test
    void negativeBetweenEstimateIsZero() {
        VarianceComponents vc = VarianceComponents.of(new double[][]{{1, 3}, {1, 3}, {1, 3}});
        assertThat(vc.betweenFork()).isZero();
        assertThat(vc.withinFork()).isCloseTo(2.0, within(1e-12));
    }

    @Test
    void optimalSplitPrefersForksWhenForksDifferAndIterationsWhenTheyDoNot() {
        // forks cost 10 s, iterations 1 s, 120 s per cell
        Split forky = Split.optimal(new VarianceComponents(20, 1.0, 0.01, 0, 0), 10, 1, 120, 50);
        Split flat = Split.optimal(new VarianceComponents(20, 0.0001, 1.0, 0, 0), 10, 1, 120, 50);
        assertThat(forky.iterations()).isLessThanOrEqualTo(2);
        assertThat(forky.forks()).isGreaterThanOrEqualTo(10);
        // not all iterations in three forks: the t quantile of few forks costs more than the spare iterations buy
        assertThat(flat.iterations()).isGreaterThanOrEqualTo(5 * forky.iterations());
        assertThat(flat.forks()).isLessThan(forky.forks());
        assertThat(forky.seconds()).isLessThanOrEqualTo(120);
        // no other split of the budget does better
        for (int n = 1; n <= 50; n++) {
            int k = (int) (120 / (10 + n));
            if (k >= Split.MIN_FORKS) {
                assertThat(Split.of(new VarianceComponents(20, 1.0, 0.01, 0, 0), k, n, 10, 1).relativeError())
                        .isGreaterThanOrEqualTo(forky.relativeError());
            }
        }
    }
}

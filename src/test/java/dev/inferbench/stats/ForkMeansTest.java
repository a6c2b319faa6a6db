package dev.inferbench.stats;

import java.util.Arrays;
import org.apache.commons.math3.distribution.TDistribution;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ForkMeansTest {
    /** A ResNet-50-like cell: 20 ms, forks differ by 3 % (sd), iterations within a fork by 1 %. */
    static final VarianceComponents TRUTH = new VarianceComponents(20, 0.6 * 0.6, 0.2 * 0.2, 0, 0);

    @Test
    void meanOfNoneIsNaNAndOfOneIsItself() {
        assertThat(ForkMeans.mean(new double[0])).isNaN();
        assertThat(ForkMeans.mean(new double[]{4.5})).isEqualTo(4.5);
        assertThat(ForkMeans.mean(new double[]{1, 2, 6})).isEqualTo(3.0);
        assertThat(ForkMeans.of(new double[][]{{1, 3}, {}})).containsExactly(2.0, Double.NaN);
    }

    @Test
    void intervalOverForkMeansCoversAboutNinetyFivePercent() {
        SplittableRandom rng = new SplittableRandom(1);
        int covered = 0;
        int trials = 4000;
        for (int t = 0; t < trials; t++) {
            double[][] cell = Power.simulate(TRUTH, 20, 5, 10, rng);
            if (ForkMeans.interval(cell, 0.95).contains(20)) {
                covered++;
            }
        }
        assertThat(covered / (double) trials).isBetween(0.935, 0.965);
    }

    /** The summary's interval before stats/: a t interval over all iteration means, as if they were independent. */
    @Test
    void perIterationIntervalUnderCoversWhenForksDiffer() {
        SplittableRandom rng = new SplittableRandom(2);
        int covered = 0;
        int trials = 4000;
        for (int t = 0; t < trials; t++) {
            double[][] cell = Power.simulate(TRUTH, 20, 5, 10, rng);
            double[] all = Arrays.stream(cell).flatMapToDouble(Arrays::stream).toArray();
            double half = new TDistribution(all.length - 1).inverseCumulativeProbability(0.975)
                    * Math.sqrt(ForkMeans.variance(all) / all.length);
            if (Math.abs(ForkMeans.mean(all) - 20) <= half) {
                covered++;
            }
        }
        assertThat(covered / (double) trials).isLessThan(0.6);
    }

    @Test
    void knownValues() {
        Interval i = ForkMeans.interval(new double[][]{{1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}}, 0.95);
        assertThat(i.estimate()).isEqualTo(3.0);
        // sd of 1..5 is sqrt(2.5); t(0.975, 4) = 2.776445
        assertThat(i.halfWidth()).isCloseTo(2.776445 * Math.sqrt(2.5 / 5), within(1e-5));
        assertThat(i.forks()).isEqualTo(5);
    }

    @Test
    void oneForkHasNoInterval() {
        Interval i = ForkMeans.interval(new double[][]{{4, 5, 6}}, 0.95);
        assertThat(i.estimate()).isEqualTo(5.0);
        assertThat(i.known()).isFalse();
        assertThat(i.relativeError()).isNaN();
    }
}

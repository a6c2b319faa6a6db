package dev.inferbench.stats;

import org.apache.commons.math3.distribution.TDistribution;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Fieller's interval for the ratio of two means over the same pairs: with a denominator known exactly it is the t
 * interval of the numerator scaled; with a denominator whose interval holds 0 it is unbounded; and over many
 * simulated comparisons where the part is in the whole it holds the true ratio at its confidence.
 */
class RatioOfMeansTest {
    @Test
    void aDenominatorWithoutNoiseScalesTheNumeratorsInterval() {
        double[] num = {0.11, 0.09, 0.13, 0.10, 0.12, 0.08};
        double[] den = {0.2, 0.2, 0.2, 0.2, 0.2, 0.2};
        Interval r = RatioOfMeans.fieller(num, den, 0.95);
        Interval d = PairedDifference.interval(new double[num.length], num, 0.95);

        assertThat(r.estimate()).isCloseTo(d.estimate() / 0.2, within(1e-12));
        assertThat(r.lower()).isCloseTo(d.lower() / 0.2, within(1e-9));
        assertThat(r.upper()).isCloseTo(d.upper() / 0.2, within(1e-9));
        assertThat(r.forks()).isEqualTo(6);
    }

    @Test
    void aNoisyDenominatorWidensTheIntervalAsymmetrically() {
        double[] num = {0.10, 0.10, 0.10, 0.10, 0.10, 0.10, 0.10, 0.10};
        double[] den = {0.05, 0.15, 0.08, 0.12, 0.06, 0.14, 0.09, 0.11}; // mean 0.1, interval excludes 0
        Interval r = RatioOfMeans.fieller(num, den, 0.95);
        double half = new TDistribution(null, 7).inverseCumulativeProbability(0.975)
                * Math.sqrt(ForkMeans.variance(den) / 8);

        assertThat(r.estimate()).isCloseTo(1.0, within(1e-12));
        // the numerator is exact here, so the bounds are 0.1 over the denominator's bounds
        assertThat(r.lower()).isCloseTo(0.1 / (0.1 + half), within(1e-9));
        assertThat(r.upper()).isCloseTo(0.1 / (0.1 - half), within(1e-9));
        assertThat(r.upper() - 1).isGreaterThan(1 - r.lower());
    }

    @Test
    void aDenominatorWhoseIntervalHoldsZeroLeavesTheRatioUnbounded() {
        double[] num = {0.10, 0.11, 0.09, 0.10};
        double[] den = {0.30, -0.25, 0.20, -0.15};
        Interval r = RatioOfMeans.fieller(num, den, 0.95);

        assertThat(r.known()).isFalse();
        assertThat(r.estimate()).isCloseTo(0.1 / 0.025, within(1e-12));
        assertThat(RatioOfMeans.fieller(new double[]{0.1}, new double[]{0.2}, 0.95).known()).isFalse();
    }

    /**
     * A part (a planted operator's change) and the whole it is in (the call's change: the part plus the other
     * operators' noise): the interval holds the true share, 1, at about its confidence, where the point share alone
     * ranges far from it.
     */
    @Test
    void overManyComparisonsTheIntervalHoldsTheTrueShareAtItsConfidence() {
        Random rnd = new Random(36);
        int trials = 4000;
        int held = 0;
        int unbounded = 0;
        double minPoint = Double.MAX_VALUE;
        double maxPoint = 0;
        for (int trial = 0; trial < trials; trial++) {
            int n = 10;
            double[] part = new double[n];
            double[] whole = new double[n];
            for (int i = 0; i < n; i++) {
                part[i] = 0.09 + 0.015 * rnd.nextGaussian();
                whole[i] = part[i] + 0.06 * rnd.nextGaussian();
            }
            Interval r = RatioOfMeans.fieller(part, whole, 0.95);
            if (!r.known()) {
                unbounded++;
                held++; // an unbounded interval holds every ratio
                continue;
            }
            minPoint = Math.min(minPoint, r.estimate());
            maxPoint = Math.max(maxPoint, r.estimate());
            if (r.contains(1.0)) {
                held++;
            }
        }
        // binomial sd at 95 % of 4000 is 0.34 %: 93.5 % and 96.5 % are four of them away
        assertThat(held / (double) trials).isBetween(0.935, 0.965);
        assertThat(unbounded / (double) trials).isLessThan(0.05);
        assertThat(minPoint).isLessThan(0.75);
        assertThat(maxPoint).isGreaterThan(1.5);
    }
}

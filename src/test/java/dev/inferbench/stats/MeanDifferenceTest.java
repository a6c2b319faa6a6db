package dev.inferbench.stats;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Welch's interval of a difference of means, against the figures worked by hand. */
class MeanDifferenceTest {
    @Test
    void welchOverTheForksOfEachSide() {
        // d = 52; each side's variance of its mean 0.25, se 0.7071, Welch's df 2, t(0.975, 2) = 4.3027
        Interval i = MeanDifference.interval(new double[] {10, 11}, new double[] {62, 63}, 0.95);
        assertThat(i.estimate()).isEqualTo(52.0);
        assertThat(i.halfWidth()).isCloseTo(4.3027 * Math.sqrt(0.5), within(1e-3));
        assertThat(i.forks()).isEqualTo(2);
        // unequal spreads and counts: variances of the means 1/3 and 9/4, Welch's df (31/12)^2 / ((1/3)^2/2 + (9/4)^2)
        Interval u = MeanDifference.interval(new double[] {1, 2, 3}, new double[] {0, 3}, 0.95);
        double v = 1.0 / 3 + 9.0 / 4;
        double df = v * v / (1.0 / 18 + 81.0 / 16);
        assertThat(df).isCloseTo(1.3038, within(1e-3));
        assertThat(u.estimate()).isCloseTo(-0.5, within(1e-12));
        assertThat(u.halfWidth()).isCloseTo(new org.apache.commons.math3.distribution.TDistribution(df)
                .inverseCumulativeProbability(0.975) * Math.sqrt(v), within(1e-9));
    }

    @Test
    void oneForkASideHasNoInterval() {
        Interval i = MeanDifference.interval(new double[] {10}, new double[] {62, 63}, 0.95);
        assertThat(i.known()).isFalse();
        assertThat(i.estimate()).isEqualTo(52.5);
        Interval same = MeanDifference.interval(new double[] {0, 0}, new double[] {0, 0}, 0.95);
        assertThat(same.known()).isTrue();
        assertThat(same.halfWidth()).isZero();
    }
}

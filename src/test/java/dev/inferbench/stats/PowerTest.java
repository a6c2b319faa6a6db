package dev.inferbench.stats;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The A/A and injected-slowdown proof on synthetic data with known truth: a ResNet-50-like cell (forks differ by
 * 3 %, iterations by 1 %), 12 forks of 10 iterations per side, compared with compare's own rule (99 % ratio
 * interval, 3 % minimum effect), 2,000 simulated comparisons each. Measured: A/A 0.4 % flagged, 10 % slowdown 100 %,
 * 5 % slowdown 85 %.
 */
class PowerTest {
    private static final VarianceComponents CELL = ForkMeansTest.TRUTH;

    @Test
    void aaComparisonsFlagAtMostOnePercent() {
        assertThat(Power.rate(CELL, 12, 10, 0, 0.03, 2000, 5)).isLessThanOrEqualTo(0.01);
    }

    @Test
    void tenPercentSlowdownFlaggedInAtLeastNinetyFivePercent() {
        assertThat(Power.rate(CELL, 12, 10, 0.10, 0.03, 2000, 6)).isGreaterThanOrEqualTo(0.95);
    }

    @Test
    void fivePercentSlowdownIsFlaggedMoreOftenThanNotAndBelowTen() {
        double five = Power.rate(CELL, 12, 10, 0.05, 0.03, 2000, 7);
        assertThat(five).isBetween(0.5, 0.95);
    }

    @Test
    void smallestDetectedShrinksWithForks() {
        double few = Power.smallestDetected(CELL, 5, 10, 0.03, 0.95, 400, 8);
        double many = Power.smallestDetected(CELL, 20, 10, 0.03, 0.95, 400, 8);
        assertThat(many).isLessThan(few);
        assertThat(Power.rate(CELL, 20, 10, many, 0.03, 400, 8)).isGreaterThanOrEqualTo(0.95);
    }
}

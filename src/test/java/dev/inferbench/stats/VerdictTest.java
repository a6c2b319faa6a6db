package dev.inferbench.stats;

import org.junit.jupiter.api.Test;

import static dev.inferbench.stats.Direction.HIGHER_IS_BETTER;
import static dev.inferbench.stats.Direction.LOWER_IS_BETTER;
import static org.assertj.core.api.Assertions.assertThat;

class VerdictTest {
    static Interval ratio(double est, double lo, double hi) {
        return new Interval(est, lo, hi, 0.95, 5);
    }

    @Test
    void directionAware() {
        assertThat(Verdict.of(ratio(1.10, 1.05, 1.15), LOWER_IS_BETTER, 0.03)).isEqualTo(Verdict.WORSE);
        assertThat(Verdict.of(ratio(1.10, 1.05, 1.15), HIGHER_IS_BETTER, 0.03)).isEqualTo(Verdict.BETTER);
        assertThat(Verdict.of(ratio(0.90, 0.85, 0.95), LOWER_IS_BETTER, 0.03)).isEqualTo(Verdict.BETTER);
        assertThat(Verdict.of(ratio(0.90, 0.85, 0.95), HIGHER_IS_BETTER, 0.03)).isEqualTo(Verdict.WORSE);
        assertThat(Verdict.of(ratio(0.90, 0.85, 0.95), Direction.UNKNOWN, 0.03)).isEqualTo(Verdict.UNKNOWN_DIRECTION);
    }

    @Test
    void smallButSignificantIsSameAndWideIsInconclusive() {
        assertThat(Verdict.of(ratio(1.01, 1.005, 1.015), LOWER_IS_BETTER, 0.03)).isEqualTo(Verdict.SAME);
        assertThat(Verdict.of(ratio(1.00, 0.9, 1.1), LOWER_IS_BETTER, 0.03)).isEqualTo(Verdict.INCONCLUSIVE);
        // a real change that is not shown to be smaller than the minimum effect is a change: WORSE, whatever the estimate
        assertThat(Verdict.of(ratio(1.02, 1.01, 1.05), LOWER_IS_BETTER, 0.03)).isEqualTo(Verdict.WORSE);
        assertThat(Verdict.of(ratio(0.98, 0.95, 0.99), LOWER_IS_BETTER, 0.03)).isEqualTo(Verdict.BETTER);
        // a real change shown smaller than the minimum effect is the same, on both sides of 1
        assertThat(Verdict.of(ratio(1.02, 1.005, 1.025), LOWER_IS_BETTER, 0.03)).isEqualTo(Verdict.SAME);
        assertThat(Verdict.of(ratio(0.98, 0.975, 0.995), LOWER_IS_BETTER, 0.03)).isEqualTo(Verdict.SAME);
        // holding 1 and reaching past the minimum effect on one side only is still "could not tell"
        assertThat(Verdict.of(ratio(1.01, 0.995, 1.04), LOWER_IS_BETTER, 0.03)).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(Verdict.of(new Interval(1.2, Double.NaN, Double.NaN, 0.95, 1), LOWER_IS_BETTER, 0.03))
                .isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(Verdict.WORSE.word(true)).isEqualTo("slower");
        assertThat(Verdict.WORSE.word(false)).isEqualTo("worse");
    }

    @Test
    void stoppingRule() {
        int min = StoppingRule.MIN_FORKS;
        assertThat(StoppingRule.precise(new Interval(10, 9.9, 10.1, 0.95, min), 0.02)).isTrue();
        assertThat(StoppingRule.precise(new Interval(10, 9.9, 10.1, 0.95, min - 1), 0.02)).as("too few forks").isFalse();
        assertThat(StoppingRule.precise(new Interval(10, 9, 11, 0.95, min + 1), 0.02)).isFalse();
        // a clear regression does not stop the A/B: the compare at the end declares it, once
        assertThat(StoppingRule.settled(ratio(1.2, 1.1, 1.3, min), 0.01)).isFalse();
        assertThat(StoppingRule.settled(ratio(0.8, 0.7, 0.9, min), 0.01)).isFalse();
        // "same" does not stop it either: only the interval's width does, which does not depend on where it lies
        assertThat(StoppingRule.settled(ratio(1.0, 0.99, 1.01, min), 0.001)).as("same").isFalse();
        assertThat(StoppingRule.settled(ratio(1.0, 0.95, 1.05, min), 0.01)).isFalse();
        assertThat(StoppingRule.settled(ratio(1.0, 0.95, 1.05, min), 0.06)).isTrue();
        assertThat(StoppingRule.settled(ratio(1.0, 0.95, 1.05, min - 1), 0.06)).isFalse();
    }

    private static Interval ratio(double est, double lo, double hi, int forks) {
        return new Interval(est, lo, hi, 0.99, forks);
    }
}

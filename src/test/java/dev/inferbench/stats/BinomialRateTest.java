package dev.inferbench.stats;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The exact interval of a counted rate, against closed forms and against the binomial tails it is defined by. */
class BinomialRateTest {

    @Test
    void noneOrAllHaveClosedForms() {
        for (int n = 1; n <= 40; n++) {
            BinomialRate none = BinomialRate.exact(0, n, 0.95);
            assertThat(none.lower()).isZero();
            assertThat(none.upper()).isCloseTo(1 - Math.pow(0.025, 1.0 / n), within(1e-12));
            BinomialRate all = BinomialRate.exact(n, n, 0.95);
            assertThat(all.upper()).isEqualTo(1);
            assertThat(all.lower()).isCloseTo(Math.pow(0.025, 1.0 / n), within(1e-12));
        }
    }

    @Test
    void eachBoundLeavesExactlyItsTailOfTheBinomial() {
        for (int n = 2; n <= 30; n++) {
            for (int k = 1; k < n; k++) {
                BinomialRate r = BinomialRate.exact(k, n, 0.95);
                // at the lower bound, k or more happen 2.5 % of the time; at the upper, k or fewer
                assertThat(1 - cdf(k - 1, n, r.lower())).as(k + " of " + n).isCloseTo(0.025, within(1e-10));
                assertThat(cdf(k, n, r.upper())).as(k + " of " + n).isCloseTo(0.025, within(1e-10));
                BinomialRate mirror = BinomialRate.exact(n - k, n, 0.95);
                assertThat(r.lower()).isCloseTo(1 - mirror.upper(), within(1e-12));
                assertThat(r.rate()).isBetween(r.lower(), r.upper());
            }
        }
        BinomialRate sevenOfEight = BinomialRate.exact(7, 8, 0.95);
        assertThat(100 * sevenOfEight.lower()).isCloseTo(47.35, within(0.01));
        assertThat(100 * sevenOfEight.upper()).isCloseTo(99.68, within(0.01));
    }

    @Test
    void refusesCountsThatAreNoRate() {
        assertThatThrownBy(() -> BinomialRate.exact(3, 2, 0.95)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BinomialRate.exact(0, 0, 0.95)).isInstanceOf(IllegalArgumentException.class);
    }

    private static double cdf(int k, int n, double p) {
        double sum = 0;
        for (int i = 0; i <= k; i++) {
            sum += choose(n, i) * Math.pow(p, i) * Math.pow(1 - p, n - i);
        }
        return sum;
    }

    private static double choose(int n, int k) {
        double c = 1;
        for (int i = 1; i <= k; i++) {
            c = c * (n - k + i) / i;
        }
        return c;
    }
}

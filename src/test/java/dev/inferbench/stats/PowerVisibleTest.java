package dev.inferbench.stats;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The change a budget's comparison sees, against the values scipy's t quantiles give for the same formula. */
class PowerVisibleTest {
    private static final Interval RATIO = new Interval(1.0, 0.98, 1.03, 0.99, 20);

    @Test
    void pairedFromTwentyPairsToAHundred() {
        Power.Visible v = Power.visibleAt(RATIO, 19, 20, 99, 100);
        // scipy: sd = (ln 1.03 - ln 0.98) / 2 / t.ppf(0.995, 19) * sqrt(20); exp(sd / 10 * (t.ppf(.995, 99) + t.ppf(.95, 99))) - 1
        assertThat(v.sd()).isCloseTo(0.03889292603390182, within(1e-9));
        assertThat(v.change()).isCloseTo(0.01681236992232238, within(1e-9));
    }

    @Test
    void welchsDegreesOfFreedom() {
        Power.Visible v = Power.visibleAt(RATIO, 38, 20, 198, 100);
        assertThat(v.sd()).isCloseTo(0.04103549854835028, within(1e-9));
        assertThat(v.change()).isCloseTo(0.017607555871668623, within(1e-9));
    }

    @Test
    void anUnknownIntervalSeesNothing() {
        Interval unknown = new Interval(Double.NaN, Double.NaN, Double.NaN, 0.99, 1);
        assertThat(Power.visibleAt(unknown, 1, 2, 1, 2).change()).isNaN();
        assertThat(Power.visibleAt(RATIO, 0, 20, 99, 100).change()).isNaN();
    }
}

package dev.inferbench.compare;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class MeanIntervalTest {

    @Test
    void studentTIntervalOfIterationMeans() {
        // mean 3, sd sqrt(2.5); t(0.975, 4) = 2.7764451
        MeanInterval ci = MeanInterval.of(new double[]{1, 2, 3, 4, 5}, 0.95);
        assertThat(ci.mean()).isEqualTo(3.0);
        assertThat(ci.n()).isEqualTo(5);
        assertThat(ci.halfWidth()).isCloseTo(2.7764451 * Math.sqrt(2.5) / Math.sqrt(5), within(1e-6));
        assertThat(ci.relativeError()).isCloseTo(ci.halfWidth() / 3, within(1e-12));
    }

    @Test
    void wideningWithConfidence() {
        double[] v = {10, 10.5, 9.5, 10.2, 9.8, 10.1};
        assertThat(MeanInterval.of(v, 0.999).halfWidth()).isGreaterThan(MeanInterval.of(v, 0.95).halfWidth());
    }

    @Test
    void oneIterationHasNoInterval() {
        MeanInterval ci = MeanInterval.of(new double[]{4}, 0.999);
        assertThat(ci.mean()).isEqualTo(4);
        assertThat(ci.halfWidth()).isNaN();
    }
}

package dev.inferbench.stats;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static dev.inferbench.stats.PercentileBound.Outcome.MET;
import static dev.inferbench.stats.PercentileBound.Outcome.MISSED;
import static dev.inferbench.stats.PercentileBound.Outcome.UNSURE;
import static org.assertj.core.api.Assertions.assertThat;

class PercentileBoundTest {

    @Test
    void theCountsThatDecideMatchTheBinomial() {
        // p99 from 1,000 requests: at most 4 over the bound is met at 95 % (P(X <= 4 | 1000, 0.01) = 0.029)
        assertThat(PercentileBound.mostOverForMet(1000, 99, 0.95)).isEqualTo(4);
        assertThat(PercentileBound.judge(1000, 5, 99, 0.95)).isEqualTo(UNSURE); // P(X <= 5) = 0.067
        assertThat(PercentileBound.judge(1000, 15, 99, 0.95)).isEqualTo(UNSURE); // P(X >= 15) = 0.082
        assertThat(PercentileBound.judge(1000, 16, 99, 0.95)).isEqualTo(MISSED); // P(X >= 16) = 0.048
        // p90 from 100: at most 4 over
        assertThat(PercentileBound.mostOverForMet(100, 90, 0.95)).isEqualTo(4);
        // too few requests for any claim: 0 of 100 over is not enough for p99 (0.99^100 = 0.37)
        assertThat(PercentileBound.mostOverForMet(100, 99, 0.95)).isEqualTo(-1);
        assertThat(PercentileBound.judge(0, 0, 99, 0.95)).isEqualTo(UNSURE);
    }

    @Test
    void aServiceExactlyAtTheBoundIsCalledMetOrMissedRarely() {
        // the promise: when the true share over the bound is exactly 1 - p, each wrong sure verdict has <= 5 %
        SplittableRandom random = new SplittableRandom(7);
        int met = 0;
        int missed = 0;
        int trials = 4000;
        for (int t = 0; t < trials; t++) {
            int over = 0;
            for (int i = 0; i < 1000; i++) {
                over += random.nextDouble() < 0.01 ? 1 : 0;
            }
            PercentileBound.Outcome o = PercentileBound.judge(1000, over, 99, 0.95);
            met += o == MET ? 1 : 0;
            missed += o == MISSED ? 1 : 0;
        }
        assertThat(met / (double) trials).isLessThanOrEqualTo(0.05);
        assertThat(missed / (double) trials).isLessThanOrEqualTo(0.05);
        // and a service well within it is called met almost always
        assertThat(PercentileBound.judge(1000, 1, 99, 0.95)).isEqualTo(MET);
    }
}

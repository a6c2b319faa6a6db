package dev.inferbench.stats;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class TwoStageTest {
    private static double[] gaussian(int n, double sd, SplittableRandom r) {
        double[] d = new double[n];
        for (int i = 0; i < n; i++) {
            d[i] = sd * r.nextGaussian();
        }
        return d;
    }

    @Test
    void thePilotAloneFixesThePairs() {
        double[] d = gaussian(30, 0.03, new SplittableRandom(1));
        int n = TwoStage.pairsNeeded(d, 8, 0.02, 0.99, 60);
        double[] laterPairsSlower = d.clone();
        Arrays.fill(laterPairsSlower, 8, 30, 0.2);
        assertThat(TwoStage.pairsNeeded(laterPairsSlower, 8, 0.02, 0.99, 60)).isEqualTo(n);
        assertThat(TwoStage.pairsNeeded(Arrays.copyOf(d, 7), 8, 0.02, 0.99, 60)).as("pilot not complete").isEqualTo(-1);
    }

    @Test
    void thePairsGiveTheWidthAskedFor() {
        double[] pilot = {0.03, -0.03, 0.03, -0.03, 0.03, -0.03, 0.03, -0.03};
        double s = Math.sqrt(ForkMeans.variance(pilot));
        int n = TwoStage.pairsNeeded(pilot, 8, 0.02, 0.99, 1000);
        double t = ForkMeans.tQuantile(7, 0.99);
        assertThat(t * s / Math.sqrt(n)).isLessThanOrEqualTo(Math.log1p(0.02));
        assertThat(t * s / Math.sqrt(n - 1)).isGreaterThan(Math.log1p(0.02));
        assertThat(TwoStage.pairsNeeded(pilot, 8, 0.02, 0.99, 20)).as("at most the most pairs").isEqualTo(20);
        assertThat(TwoStage.pairsNeeded(new double[8], 8, 0.02, 0.99, 60)).as("at least the pilot").isEqualTo(8);
    }

    /** Stein: with the pilot's spread and degrees of freedom the interval covers the truth as often as it says. */
    @Test
    void theTwoStageIntervalKeepsItsCoverage() {
        SplittableRandom r = new SplittableRandom(2);
        int trials = 20000;
        int missed = 0;
        for (int i = 0; i < trials; i++) {
            double[] d = gaussian(60, 0.03, r);
            int n = TwoStage.pairsNeeded(d, 8, 0.02, 0.95, 60);
            double[] used = Arrays.copyOf(d, n);
            double half = TwoStage.halfWidth(used, 8, n, 0.95);
            missed += Math.abs(ForkMeans.mean(used)) > half ? 1 : 0;
        }
        // nominal 5 %, three standard errors of 20,000 trials above it
        assertThat(missed / (double) trials).isLessThanOrEqualTo(0.05 + 3 * Math.sqrt(0.05 * 0.95 / trials));
    }
}

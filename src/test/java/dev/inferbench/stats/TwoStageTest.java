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

    /**
     * The pairs an interval takes its spread from: the pilot's when the pilot's number was reached, all of them when
     * the budget ended the comparison first, all of them when there was no pilot.
     */
    @Test
    void aComparisonTheBudgetEndedTakesItsSpreadFromEveryPair() {
        double[] wide = new double[12];
        double[] calm = new double[12];
        for (int i = 0; i < 12; i++) {
            wide[i] = i % 2 == 0 ? 0.05 : -0.05; // the pilot asks for (3.50 * 0.053 / 0.0198)^2, about 88 pairs
            calm[i] = i % 2 == 0 ? 0.002 : -0.002; // the pilot's 8 are enough
        }
        TwoStage.Plan plan = new TwoStage.Plan(8, 0.02, 0.99);
        assertThat(TwoStage.pairsNeeded(wide, 8, 0.02, 0.99, Integer.MAX_VALUE)).isGreaterThan(12);
        assertThat(plan.spreadPairs(wide)).as("the budget ended it at 12 of the pilot's ~88").isEqualTo(12);
        assertThat(plan.spreadPairs(calm)).as("the pilot's pairs were reached").isEqualTo(8);
        assertThat(new TwoStage.Plan(8, Double.NaN, Double.NaN).spreadPairs(wide)).as("no precision: Stein's").isEqualTo(8);
        assertThat(TwoStage.Plan.FIXED.spreadPairs(wide)).as("no pilot").isEqualTo(12);
        assertThat(plan.spreadPairs(Arrays.copyOf(wide, 6))).as("still in the pilot").isEqualTo(6);
    }
}

package dev.inferbench.stats;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class PairDriftTest {
    /** AR(1) pair log ratios with the given lag-1 correlation. */
    private static double[] ar1(int n, double phi, SplittableRandom r) {
        double[] d = new double[n];
        double x = r.nextGaussian();
        for (int i = 0; i < n; i++) {
            x = phi * x + Math.sqrt(1 - phi * phi) * r.nextGaussian();
            d[i] = 0.03 * x;
        }
        return d;
    }

    @Test
    void independentPairsAreRarelyWidenedAndDriftingOnesMostly() {
        SplittableRandom r = new SplittableRandom(3);
        int trials = 4000;
        int independent = 0;
        int drifting = 0;
        for (int i = 0; i < trials; i++) {
            independent += PairDrift.of(ar1(30, 0, r)).widened() ? 1 : 0;
            drifting += PairDrift.of(ar1(30, 0.6, r)).widened() ? 1 : 0;
        }
        assertThat(independent / (double) trials).as("a one-sided 5 % test").isLessThan(0.07);
        assertThat(drifting / (double) trials).isGreaterThan(0.8);
    }

    /** With drift the paired interval is widened and misses the truth far less often than a plain t interval. */
    @Test
    void aWidenedIntervalMissesTheTruthFarLessOften() {
        SplittableRandom r = new SplittableRandom(4);
        int trials = 4000;
        int missed = 0;
        int plainMissed = 0;
        for (int i = 0; i < trials; i++) {
            double[] d = ar1(40, 0.5, r);
            double[][] base = new double[d.length][];
            double[][] head = new double[d.length][];
            for (int k = 0; k < d.length; k++) {
                base[k] = new double[]{100};
                head[k] = new double[]{100 * Math.exp(d[k])};
            }
            missed += Ratio.paired(base, head, 0.99).contains(1) ? 0 : 1;
            double half = ForkMeans.tQuantile(d.length - 1, 0.99) * Math.sqrt(ForkMeans.variance(d) / d.length);
            plainMissed += Math.abs(ForkMeans.mean(d)) > half ? 1 : 0;
        }
        // an AR(1) of 0.5 triples the variance of the mean; the estimate of r from 40 pairs is biased low, so the
        // widened interval still misses more than its nominal 1 %, but a third as often as the plain one
        assertThat(plainMissed / (double) trials).as("plain t interval").isGreaterThan(0.10);
        assertThat(missed / (double) trials).as("widened").isLessThan(0.05);
    }

    @Test
    void tooFewPairsSayNothing() {
        assertThat(PairDrift.of(new double[]{0.1, 0.2, 0.3}).widened()).isFalse();
        assertThat(PairDrift.of(new double[]{0.1, 0.2, 0.3}).lag1()).isNaN();
    }
}

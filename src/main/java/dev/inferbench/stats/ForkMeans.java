package dev.inferbench.stats;

import java.util.concurrent.ConcurrentHashMap;
import java.util.List;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * The interval of a cell's mean, with the fork as the unit: a Student-t interval over the forks' means.
 *
 * <p>Why this and not the two-level bootstrap of Kalibera &amp; Jones for the mean: in their hierarchical model a
 * fork's mean is {@code mu + fork effect + the mean of its iterations' noise}, so with the same number of iterations
 * per fork (what a plan gives) the fork means are independent and identically distributed with variance
 * {@code sigma_fork^2 + sigma_iter^2 / n}: exactly the variance of the grand mean's estimate times k. The t interval
 * over them is then exact under normal noise and needs no random numbers, while the percentile bootstrap resamples
 * only the k forks seen and under-covers badly at the 3-10 forks a run has (84 % for a nominal 95 % at 5 forks in a
 * simulation of the cell {@code ForkMeansTest} uses). The bootstrap is kept for statistics with no such closed form: percentiles
 * ({@link Percentiles}). Unequal iteration counts (a fork cut short) are tolerated: each fork's mean still counts
 * once, as the fork is the unit.
 */
public final class ForkMeans {
    /** The confidence of every interval inferbench prints unless told otherwise. */
    public static final double DEFAULT_CONFIDENCE = 0.95;

    private ForkMeans() {
    }

    /** Each fork's mean of its iteration means. */
    public static double[] of(double[][] forks) {
        double[] means = new double[forks.length];
        for (int i = 0; i < forks.length; i++) {
            means[i] = mean(forks[i]);
        }
        return means;
    }

    /** @param forks per fork, its iterations' means */
    public static Interval interval(double[][] forks, double confidence) {
        double[] means = of(forks);
        int k = means.length;
        double mean = mean(means);
        if (k < 2) {
            return Interval.unknown(mean, confidence, k);
        }
        double half = tQuantile(k - 1, confidence) * Math.sqrt(variance(means) / k);
        return new Interval(mean, mean - half, mean + half, confidence, k);
    }

    /** Quantiles already computed, by whole degrees of freedom and confidence: a report asks for the same few per cell. */
    private static final ConcurrentHashMap<List<Double>, Double> T_QUANTILES =
            new ConcurrentHashMap<>();

    static double tQuantile(double df, double confidence) {
        if (df != Math.rint(df) || df > 1000) { // Welch's fractional df (Ratio) would only fill the map
            return new TDistribution(null, df).inverseCumulativeProbability(1 - (1 - confidence) / 2);
        }
        return T_QUANTILES.computeIfAbsent(List.of(df, confidence), key ->
                new TDistribution(null, df).inverseCumulativeProbability(1 - (1 - confidence) / 2));
    }

    public static double mean(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return v.length == 0 ? Double.NaN : s / v.length;
    }

    /** The unbiased sample variance. */
    static double variance(double[] v) {
        double m = mean(v);
        double ss = 0;
        for (double x : v) {
            ss += (x - m) * (x - m);
        }
        return ss / (v.length - 1);
    }
}

package dev.inferbench.compare;

import org.apache.commons.math3.distribution.TDistribution;

import java.util.Arrays;

/**
 * A Student-t confidence interval of a mean computed from per-iteration means (across all forks), not from pooled
 * samples: consecutive calls are correlated and forks differ, so pooled samples overstate how much is known.
 */
public record MeanInterval(double mean, double halfWidth, int n, double confidence) {

    public static final double DEFAULT_CONFIDENCE = 0.999;

    public static MeanInterval of(double[] iterationMeans, double confidence) {
        int n = iterationMeans.length;
        double mean = Arrays.stream(iterationMeans).average().orElse(Double.NaN);
        if (n < 2) {
            return new MeanInterval(mean, Double.NaN, n, confidence);
        }
        double ss = 0;
        for (double v : iterationMeans) {
            ss += (v - mean) * (v - mean);
        }
        double sd = Math.sqrt(ss / (n - 1));
        double t = new TDistribution(n - 1).inverseCumulativeProbability(1 - (1 - confidence) / 2);
        return new MeanInterval(mean, t * sd / Math.sqrt(n), n, confidence);
    }

    /** Half-width as a fraction of the mean; NaN when unknown. */
    public double relativeError() {
        return halfWidth / mean;
    }
}

package dev.inferbench.stats;

import java.util.Locale;

/**
 * Whether consecutive pair log ratios depend on each other: their lag-1 autocorrelation. Pairs run in a random order
 * (or base first) are independent when the machine's drift hits both forks of a pair alike; drift within a pair, an
 * order effect that changes over the run, or a slow warming of the machine make neighbouring pairs alike, and a t
 * interval over them is too narrow. A positive autocorrelation that a one-sided 5 % test calls significant widens the
 * interval to the effective number of pairs {@code n (1 - r) / (1 + r)} (the variance of the mean of an AR(1) series).
 * Never narrower: a negative or insignificant r leaves the interval as it is, so under independence the check costs
 * only width (in about 5 % of comparisons), never error rate.
 *
 * @param lag1      the lag-1 autocorrelation; NaN when there are too few pairs to say
 * @param effective the effective number of pairs (the pairs themselves unless widened)
 * @param widened   whether the interval is widened for it
 */
public record PairDrift(double lag1, double effective, boolean widened) {
    /** Fewer pairs than this and the autocorrelation is not estimated. */
    public static final int MIN_PAIRS = 8;
    /** The one-sided normal quantile of the significance test (5 %): r is about N(0, 1/n) for independent pairs. */
    private static final double Z_95 = 1.6448536269514722;

    public static PairDrift of(double[] logRatios) {
        int n = logRatios.length;
        if (n < MIN_PAIRS) {
            return new PairDrift(Double.NaN, n, false);
        }
        double m = ForkMeans.mean(logRatios);
        double num = 0;
        double den = 0;
        for (int i = 0; i < n; i++) {
            den += (logRatios[i] - m) * (logRatios[i] - m);
            if (i + 1 < n) {
                num += (logRatios[i] - m) * (logRatios[i + 1] - m);
            }
        }
        double r = den == 0 ? 0 : num / den;
        if (r <= Z_95 / Math.sqrt(n)) {
            return new PairDrift(r, n, false);
        }
        return new PairDrift(r, Math.max(2, n * (1 - r) / (1 + r)), true);
    }

    /** "pair log ratios drift (lag-1 autocorrelation 0.41 over 20 pairs): interval widened to 8.4 effective pairs". */
    public String note(int pairs) {
        return String.format(Locale.ROOT, "pair log ratios drift (lag-1 autocorrelation %.2f over %d pairs): interval"
                + " widened to %.1f effective pairs", lag1, pairs, effective);
    }
}

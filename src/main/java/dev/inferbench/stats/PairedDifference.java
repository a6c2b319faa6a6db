package dev.inferbench.stats;

/**
 * The mean of per-pair differences ({@code candidate_i - baseline_i}, in the measure's own unit) with a Student-t
 * interval over the pairs: for figures whose change is read in their unit rather than as a ratio, such as one
 * operator's milliseconds per call, which is 0 on a side that does not run it. The pair is the unit, as the fork is
 * for a ratio ({@link Ratio#paired}): what drifted the machine during a pair hits both of its measurements alike and
 * cancels in their difference.
 */
public final class PairedDifference {
    private PairedDifference() {
    }

    /** @param baseline per pair, the baseline's value; @param candidate the same, in the same order */
    public static Interval interval(double[] baseline, double[] candidate, double confidence) {
        if (baseline.length != candidate.length) {
            throw new IllegalArgumentException("paired sides differ in length: " + baseline.length + " vs "
                    + candidate.length);
        }
        double[] d = new double[baseline.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = candidate[i] - baseline[i];
        }
        int k = d.length;
        double mean = ForkMeans.mean(d);
        if (k < 2 || !Double.isFinite(mean)) {
            return Interval.unknown(mean, confidence, k);
        }
        double half = ForkMeans.tQuantile(k - 1, confidence) * Math.sqrt(ForkMeans.variance(d) / k);
        return new Interval(mean, mean - half, mean + half, confidence, k);
    }
}

package dev.inferbench.stats;

/**
 * The difference of two cells' means (candidate - baseline, in the measure's own unit) with Welch's t interval over
 * the forks of each side as independent samples: for figures read in their unit and that may be 0 on a side, where a
 * ratio has nothing to bound ({@link Ratio}), such as the share of a tail's calls that one cause explains. Forks
 * measured in pairs are better served by {@link PairedDifference}.
 */
public final class MeanDifference {
    private MeanDifference() {
    }

    /** @param baseline per fork, its value; @param candidate the same for the other side */
    public static Interval interval(double[] baseline, double[] candidate, double confidence) {
        double ma = ForkMeans.mean(baseline);
        double mb = ForkMeans.mean(candidate);
        double d = mb - ma;
        int k = Math.min(baseline.length, candidate.length);
        if (baseline.length < 2 || candidate.length < 2 || !Double.isFinite(d)) {
            return Interval.unknown(d, confidence, k);
        }
        double va = ForkMeans.variance(baseline) / baseline.length;
        double vb = ForkMeans.variance(candidate) / candidate.length;
        double se = Math.sqrt(va + vb);
        if (se == 0) {
            return new Interval(d, d, d, confidence, k);
        }
        double df = (va + vb) * (va + vb) / (va * va / (baseline.length - 1) + vb * vb / (candidate.length - 1));
        double half = ForkMeans.tQuantile(df, confidence) * se;
        return new Interval(d, d - half, d + half, confidence, k);
    }
}

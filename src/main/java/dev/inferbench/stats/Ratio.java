package dev.inferbench.stats;

/**
 * The ratio of two cells' means (candidate / baseline) with its interval, forks as the unit on both sides.
 *
 * <p>Method: the delta method on the log scale with Welch's degrees of freedom. {@code ln(mean)} of each side has
 * variance about {@code s^2 / (k mean^2)} (s: the spread of that side's fork means), the two sides are independent,
 * so {@code ln(ratio)} is a difference of two independent means: Welch's t interval, transformed back by exp. It is
 * the closed form of what bootstrapping both sides independently estimates, keeps the interval inside (0, inf)
 * and asymmetric as a ratio's should be, and unlike the percentile bootstrap it does not under-cover at 3-10 forks
 * ({@code RatioTest} measures its coverage).
 */
public final class Ratio {
    private Ratio() {
    }

    /** @param baseline per fork, its iterations' means; @param candidate the same for the other side */
    public static Interval interval(double[][] baseline, double[][] candidate, double confidence) {
        double[] a = ForkMeans.of(baseline);
        double[] b = ForkMeans.of(candidate);
        double ma = ForkMeans.mean(a);
        double mb = ForkMeans.mean(b);
        double ratio = mb / ma;
        int k = Math.min(a.length, b.length);
        if (a.length < 2 || b.length < 2) {
            return Interval.unknown(ratio, confidence, k);
        }
        double va = ForkMeans.variance(a) / (a.length * ma * ma);
        double vb = ForkMeans.variance(b) / (b.length * mb * mb);
        double se = Math.sqrt(va + vb);
        if (!Double.isFinite(ratio) || !Double.isFinite(se) || ma <= 0 || mb <= 0) {
            // a side whose mean is 0 (gc.count of a cell that never collects), negative (mem.native.model of a tiny
            // model: RSS after load minus before) or not a number: the log-scale interval has no ratio to bound
            return Interval.unknown(ratio, confidence, k);
        }
        if (se == 0) {
            return new Interval(ratio, ratio, ratio, confidence, k);
        }
        double df = (va + vb) * (va + vb) / (va * va / (a.length - 1) + vb * vb / (b.length - 1));
        double half = ForkMeans.tQuantile(df, confidence) * se;
        return new Interval(ratio, ratio * Math.exp(-half), ratio * Math.exp(half), confidence, k);
    }
}

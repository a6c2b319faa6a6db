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

    /**
     * The ratio from forks measured in pairs (fork i of each side run one after the other, or at the same time): a
     * t interval over the per-pair log ratios {@code ln(candidate_i / baseline_i)}, transformed back by exp. What
     * drifts the machine's speed for minutes hits both forks of a pair alike and cancels in their ratio, which the
     * unpaired interval above counts as noise twice. The estimate is the geometric mean of the pair ratios (for fork
     * means that differ by a few percent it is within a fraction of a percent of the ratio of means). When
     * neighbouring pairs are alike ({@link PairDrift}) the interval is widened to the effective number of pairs.
     *
     * @param baseline  per pair, the baseline fork's iteration means; @param candidate the same, in the same order
     */
    public static Interval paired(double[][] baseline, double[][] candidate, double confidence) {
        return paired(baseline, candidate, confidence, TwoStage.Plan.FIXED);
    }

    /**
     * As above, for a comparison that ran as {@code plan} says (a pilot chose its number of pairs, {@link TwoStage}):
     * the spread from the pilot's pairs when the pilot's number of pairs was reached, from every pair when the budget
     * ended it first; the centre from every pair.
     */
    public static Interval paired(double[][] baseline, double[][] candidate, double confidence, TwoStage.Plan plan) {
        double[] d = logRatios(baseline, candidate);
        int k = d.length;
        double mean = ForkMeans.mean(d);
        double ratio = Math.exp(mean);
        if (k < 2 || !Double.isFinite(mean)) {
            return Interval.unknown(k == 0 ? Double.NaN : ForkMeans.mean(ForkMeans.of(candidate))
                    / ForkMeans.mean(ForkMeans.of(baseline)), confidence, k);
        }
        PairDrift drift = PairDrift.of(d);
        int spread = plan.spreadPairs(d);
        double half = TwoStage.halfWidth(d, spread, drift.effective(), confidence);
        if (half == 0) {
            return new Interval(ratio, ratio, ratio, confidence, k);
        }
        if (drift.widened() && spread >= k) {
            // fewer independent pairs, fewer degrees of freedom too
            half *= ForkMeans.tQuantile(Math.max(1, Math.floor(drift.effective()) - 1), confidence)
                    / ForkMeans.tQuantile(k - 1, confidence);
        }
        return new Interval(ratio, Math.exp(mean - half), Math.exp(mean + half), confidence, k);
    }

    /** Per pair, {@code ln(candidate_i / baseline_i)} of the fork means; NaN for a pair with a mean that is not positive. */
    public static double[] logRatios(double[][] baseline, double[][] candidate) {
        if (baseline.length != candidate.length) {
            throw new IllegalArgumentException("paired sides differ in length: " + baseline.length + " vs " + candidate.length);
        }
        double[] a = ForkMeans.of(baseline);
        double[] b = ForkMeans.of(candidate);
        double[] d = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            d[i] = a[i] > 0 && b[i] > 0 ? Math.log(b[i] / a[i]) : Double.NaN;
        }
        return d;
    }
}

package dev.inferbench.stats;

import org.apache.commons.math3.distribution.BinomialDistribution;

/**
 * Whether a percentile of requests' latency is within a bound, judged from how many of {@code n} requests exceeded
 * the bound rather than from the sample percentile alone, the way MLPerf LoadGen's early stopping does: if the true
 * share over the bound were exactly {@code 1 - p}, how likely is a count this small (then the bound is met) or this
 * large (then it is missed)? When neither is unlikely at the stated confidence, the step cannot tell, and a caller
 * that needs a yes or no must measure more (or treat "cannot tell" as "not shown met").
 *
 * <p>Why: a sample p99 of 1,000 requests sits on the 10th slowest; a service whose true p99 equals the bound passes
 * and fails such a step about equally often, and a bisection that trusts one coin flip walks off the knee.
 */
public final class PercentileBound {
    /** The one-sided confidence of a step's met / missed verdict. */
    public static final double CONFIDENCE = 0.95;

    /** What a step's counts say about the percentile against its bound. */
    public enum Outcome { MET, MISSED, UNSURE }

    private PercentileBound() {
    }

    /**
     * @param n          requests measured
     * @param over       of those, how many exceeded the bound
     * @param percentile 0 < p < 100
     */
    public static Outcome judge(long n, long over, double percentile, double confidence) {
        if (n <= 0) {
            return Outcome.UNSURE;
        }
        if (over < 0 || over > n || !(percentile > 0 && percentile < 100)) {
            throw new IllegalArgumentException("need 0 <= over <= n and 0 < p < 100, got " + over + " of " + n
                    + " at p" + percentile);
        }
        if (n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("too many requests for the binomial: " + n);
        }
        BinomialDistribution atBound = new BinomialDistribution(null, (int) n, 1 - percentile / 100);
        double alpha = 1 - confidence;
        if (atBound.cumulativeProbability((int) over) <= alpha) {
            return Outcome.MET; // so few over the bound are unlikely if the true share were 1 - p
        }
        if (over > 0 && 1 - atBound.cumulativeProbability((int) over - 1) <= alpha) {
            return Outcome.MISSED; // so many over the bound are unlikely if the true share were 1 - p
        }
        return Outcome.UNSURE;
    }

    /** The most requests of {@code n} that may exceed the bound for a MET verdict; -1 when no count is enough. */
    public static long mostOverForMet(long n, double percentile, double confidence) {
        long k = -1;
        while (k + 1 <= n && judge(n, k + 1, percentile, confidence) == Outcome.MET) {
            k++;
        }
        return k;
    }
}

package dev.inferbench.stats;

/**
 * What a candidate/baseline ratio says, given the smallest change that matters ({@code minEffect}, e.g. 0.03).
 * With the ratio turned so that above 1 is worse (inverted for higher-is-better metrics), and the bounds symmetric in
 * log space, so that a change and its inverse get the same verdict whichever way a metric points (a time 3 % longer
 * is as large a change as a throughput 1/1.03 as high), the four verdicts split every interval:
 * <ul>
 *   <li>SAME: the whole interval lies within {@code [1 / (1 + minEffect), 1 + minEffect]}: any change is too small
 *       to matter, significant or not;</li>
 *   <li>WORSE: the whole interval lies above 1 (a real change at the interval's confidence) and reaches past
 *       {@code 1 + minEffect} (not shown to be smaller than the minimum effect);</li>
 *   <li>BETTER: the mirror image, below 1 and reaching below {@code 1 / (1 + minEffect)};</li>
 *   <li>INCONCLUSIVE: the interval holds 1 and reaches past the minimum effect: the comparison could not tell
 *       ({@link Power#visibleChange} says what it could have seen). UNKNOWN_DIRECTION: the metric's direction is
 *       unknown, only the ratio is reported.</li>
 * </ul>
 * Why not "the estimate at least {@code 1 + minEffect}" for WORSE (an earlier rule): a true change of exactly
 * the minimum effect has its estimate below it half the time, so no number of forks found a 3 % slowdown with more
 * than ~50 % power, while a 2 % one still failed the gate about 1 time in 10. Nor the whole interval beyond the
 * minimum effect (criterion.rs): the same 50 % cap. With this rule a true 3 % slowdown is found with 95 % power once
 * the interval is narrow enough, and a true change below the minimum effect is flagged only while the interval cannot
 * yet exclude the minimum effect ({@code GateRatesTest} pins the rates at 0, 1, 2, 3 and 5 %).
 * Verdicts use {@link #CONFIDENCE} (99 %) intervals: an A/A comparison then flags at most 1 % of cells whatever
 * the noise (0.5 % each way), which a 95 % interval (up to 5 %) could not promise on a noisy machine.
 */
public enum Verdict {
    BETTER, WORSE, SAME, INCONCLUSIVE, UNKNOWN_DIRECTION;

    /** The confidence of the ratio intervals verdicts are drawn from. */
    public static final double CONFIDENCE = 0.99;
    /** The smallest relative change a verdict counts when none is given ({@code --min-effect}): 3 %. */
    public static final double DEFAULT_MIN_EFFECT = 0.03;

    public static Verdict of(Interval ratio, Direction direction, double minEffect) {
        if (direction == Direction.UNKNOWN) {
            return UNKNOWN_DIRECTION;
        }
        if (!ratio.known()) {
            return INCONCLUSIVE;
        }
        boolean flip = direction == Direction.HIGHER_IS_BETTER;
        double lo = flip ? 1 / ratio.upper() : ratio.lower();
        double hi = flip ? 1 / ratio.lower() : ratio.upper();
        double below = 1 / (1 + minEffect);
        if (lo >= below && hi <= 1 + minEffect) {
            return SAME;
        }
        if (lo > 1) {
            return WORSE;
        }
        if (hi < 1) {
            return BETTER;
        }
        return INCONCLUSIVE;
    }

    /** The word a table prints: faster/slower for time metrics, better/worse for others. */
    public String word(boolean timeMetric) {
        return switch (this) {
            case BETTER -> timeMetric ? "faster" : "better";
            case WORSE -> timeMetric ? "slower" : "worse";
            case SAME -> "same";
            case INCONCLUSIVE -> "inconclusive";
            case UNKNOWN_DIRECTION -> "direction unknown";
        };
    }
}

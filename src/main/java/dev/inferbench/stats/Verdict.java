package dev.inferbench.stats;

/**
 * What a candidate/baseline ratio says, given the smallest change that matters ({@code minEffect}, e.g. 0.03).
 * With {@code change} the ratio turned so that above 1 is worse (inverted for higher-is-better metrics), and the
 * bounds symmetric in log space, so that a change and its inverse get the same verdict whichever way a metric points
 * (a time 3 % longer is as large a change as a throughput 1/1.03 as high):
 * <ul>
 *   <li>WORSE: the interval lies above 1 and the estimate is at least {@code 1 + minEffect};</li>
 *   <li>BETTER: the interval lies below 1 and the estimate is at most {@code 1 / (1 + minEffect)};</li>
 *   <li>SAME: the whole interval lies within {@code [1 / (1 + minEffect), 1 + minEffect]}: any change is too small
 *       to matter, significant or not;</li>
 *   <li>INCONCLUSIVE: none of these (too few forks to tell); UNKNOWN_DIRECTION: the metric's direction is unknown,
 *       only the ratio is reported.</li>
 * </ul>
 * Verdicts use {@link #CONFIDENCE} (99 %) intervals: an A/A comparison then flags at most 1 % of cells whatever
 * the noise (0.5 % each way), which a 95 % interval (up to 5 %) could not promise on a noisy machine; requiring an
 * estimate past the minimum effect as well lowers it further.
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
        double est = flip ? 1 / ratio.estimate() : ratio.estimate();
        double lo = flip ? 1 / ratio.upper() : ratio.lower();
        double hi = flip ? 1 / ratio.lower() : ratio.upper();
        if (lo > 1 && est >= 1 + minEffect) {
            return WORSE;
        }
        double below = 1 / (1 + minEffect);
        if (hi < 1 && est <= below) {
            return BETTER;
        }
        if (lo >= below && hi <= 1 + minEffect) {
            return SAME;
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

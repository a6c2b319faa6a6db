package dev.inferbench.stats;

/**
 * An estimate with a confidence interval, from {@code forks} forks (for a ratio: the smaller side's count).
 * Bounds are NaN when there are too few forks to say anything (one fork has no between-fork spread).
 */
public record Interval(double estimate, double lower, double upper, double confidence, int forks) {

    /** The half-width: half the interval's length. */
    public double halfWidth() {
        return (upper - lower) / 2;
    }

    /** The larger distance from the estimate to a bound, as a fraction of the estimate; NaN when unknown. */
    public double relativeError() {
        return Math.max(upper - estimate, estimate - lower) / Math.abs(estimate);
    }

    public boolean known() {
        return !Double.isNaN(lower) && !Double.isNaN(upper);
    }

    public boolean contains(double value) {
        return lower <= value && value <= upper;
    }

    static Interval unknown(double estimate, double confidence, int forks) {
        return new Interval(estimate, Double.NaN, Double.NaN, confidence, forks);
    }
}

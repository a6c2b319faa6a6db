package dev.inferbench.stats;

/** Which way a metric improves. */
public enum Direction {
    LOWER_IS_BETTER, HIGHER_IS_BETTER, UNKNOWN
}

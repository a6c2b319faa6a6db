package dev.inferbench.bench;

import dev.inferbench.BenchException;

/**
 * How a {@link BenchException} leaves a benchmark fork. JMH prints whatever a setup throws with its stack trace;
 * this one carries none unless {@code -Dinferbench.verbose=true}, so the launcher can show the user one line.
 */
final class CellFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    static final String VERBOSE_PROPERTY = "inferbench.verbose";

    private CellFailure(String message, Throwable cause, boolean withTrace) {
        super(message, cause, false, withTrace);
    }

    static CellFailure of(BenchException e) {
        boolean verbose = Boolean.getBoolean(VERBOSE_PROPERTY);
        return new CellFailure(e.getMessage(), verbose ? e : null, verbose);
    }
}

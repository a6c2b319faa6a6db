package dev.inferbench.bench;

import dev.inferbench.BenchException;

/**
 * How a {@link BenchException} leaves a benchmark fork: JMH accepts only unchecked exceptions from a setup. The
 * message is the BenchException's one line, which the inferbench launcher shows in place of the stack trace
 * (kept, with the cause, for --verbose).
 */
final class CellFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CellFailure(BenchException cause) {
        super(cause.getMessage(), cause);
    }
}

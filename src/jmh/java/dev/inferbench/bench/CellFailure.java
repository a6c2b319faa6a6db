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

    /** A trial setup's work. */
    @FunctionalInterface
    interface Setup {
        void run() throws BenchException;
    }

    /**
     * Runs a trial setup; when it fails, releases what it had loaded ({@code tearDown}) and fails the cell, with a
     * BenchException's one line as the message.
     */
    static void setUp(Setup setup, Runnable tearDown) {
        try {
            setup.run();
        } catch (BenchException e) {
            tearDown.run();
            throw new CellFailure(e);
        } catch (RuntimeException e) {
            tearDown.run();
            throw e;
        }
    }
}

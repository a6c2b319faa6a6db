package dev.inferbench.commits;

import dev.inferbench.ExitCode;

/**
 * Why a comparison of commits ended without a verdict: bad input or a side that does not build
 * ({@link ExitCode#BAD_INPUT}), or any other failure, a fork or launcher of either side included
 * ({@link ExitCode#INTERNAL_ERROR}). Never 0 or 1, which CI reads as a verdict.
 */
final class Stop extends Exception {
    private final int exitCode;

    private Stop(String message, int exitCode) {
        super(message);
        this.exitCode = exitCode;
    }

    static Stop badInput(String message) {
        return new Stop(message, ExitCode.BAD_INPUT);
    }

    static Stop failure(String message) {
        return new Stop(message, ExitCode.INTERNAL_ERROR);
    }

    int exitCode() {
        return exitCode;
    }
}

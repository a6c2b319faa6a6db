package dev.inferbench;

/**
 * The jar's exit codes, every subcommand's, in one place. A verdict is 0, 1 or 3; 2, 4 and 5 say the run could not
 * give one, and why, so CI can tell a crash from a slowdown.
 */
public final class ExitCode {
    /** Every cell measured (skipped cells are not failures); a comparison that passed. */
    public static final int OK = 0;
    /** Some cells failed (the others are kept); a regression or a failed threshold; a check that disagreed. */
    public static final int FAILED = 1;
    /** Bad input, found before anything ran; a commit that does not build. */
    public static final int BAD_INPUT = 2;
    /** A gate that could not tell: neither a regression nor shown the same. */
    public static final int UNDECIDED = 3;
    /** A bug or an unexpected failure inside inferbench (a fork or launcher that died): never a verdict. */
    public static final int INTERNAL_ERROR = 4;
    /** The file system refused: a full disk, an unwritable folder. Not bad input, not a bug, not a verdict. */
    public static final int IO_FAILURE = 5;

    private ExitCode() {
    }
}

package dev.inferbench.run;

/**
 * The run cannot go on (its folder cannot be written: disk full, folder removed), though nothing was wrong with
 * the input. What landed before is kept; the message says what failed and how to continue. The CLI prints it in
 * one line and exits 1.
 */
public class RunStoppedException extends Exception {
    private static final long serialVersionUID = 1L;

    public RunStoppedException(String message, Throwable cause) {
        super(message, cause);
    }
}

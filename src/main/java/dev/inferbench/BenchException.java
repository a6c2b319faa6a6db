package dev.inferbench;

/**
 * The one checked exception for failures a user can act on: bad input, a missing or unreadable model, an engine
 * that cannot run on the chosen device. The message is a single line that says what was expected and what was
 * found; the cause, when there is one, is always kept for --verbose.
 */
public class BenchException extends Exception {
    private static final long serialVersionUID = 1L;

    public BenchException(String message) {
        super(message);
    }

    public BenchException(String message, Throwable cause) {
        super(message, cause);
    }
}

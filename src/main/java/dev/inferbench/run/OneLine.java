package dev.inferbench.run;

/** The first line of an exception's message, for the one-line errors users see. */
final class OneLine {
    private static final int MAX = 300;

    private OneLine() {
    }

    static String of(Throwable e) {
        String m = e.getMessage();
        if (m == null || m.isBlank()) {
            return e.getClass().getSimpleName();
        }
        String line = m.strip().lines().findFirst().orElse("");
        return line.length() > MAX ? line.substring(0, MAX) + "..." : line;
    }
}

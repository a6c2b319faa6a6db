package dev.inferbench.run;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The console as JMH sees it during one fork. JMH believes every fork is the whole run, so its own "# Run
 * progress: 0.00% complete" and "# Fork: 1 of 1" lines would mislead; they are rewritten to the loop's view.
 * JMH's note on where it saved the fork's own result file is dropped: the loop keeps the result itself.
 * Everything else passes through unchanged, line by line.
 */
final class ForkConsole extends OutputStream {
    private final PrintStream target;
    private final String forkLine;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    ForkConsole(PrintStream target, int fork, int forks) {
        this.target = target;
        this.forkLine = "# Fork: " + fork + " of " + forks;
    }

    PrintStream stream() {
        return new PrintStream(this, true, StandardCharsets.UTF_8);
    }

    @Override
    public void write(int b) {
        line.write(b);
        if (b == '\n') {
            emit();
        }
    }

    @Override
    public void flush() {
        if (line.size() > 0 && !startsLikeRewritten()) {
            emit();
        }
        target.flush();
    }

    /** A partial line that may still turn out to be one we rewrite waits for its end. */
    private boolean startsLikeRewritten() {
        String s = line.toString(StandardCharsets.UTF_8);
        return "# Run progress:".startsWith(s) || s.startsWith("# Run progress:")
                || "# Fork: 1 of 1".startsWith(s) || s.startsWith("# Fork: 1 of 1");
    }

    private void emit() {
        String s = line.toString(StandardCharsets.UTF_8);
        line.reset();
        if (s.startsWith("# Run progress:") || s.startsWith("Benchmark result is saved to") && s.contains(RunLoop.FORK_FILE)) {
            return;
        }
        if (s.startsWith("# Fork: 1 of 1")) {
            s = forkLine + s.substring("# Fork: 1 of 1".length());
        }
        target.print(s);
    }

    @Override
    public void close() {
        flush();
    }
}

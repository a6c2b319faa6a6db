package dev.inferbench.run;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The console as JMH sees it during one fork. JMH believes every fork is the whole run, so its own "# Run
 * progress: 0.00% complete" and "# Fork: 1 of 1" lines would mislead; they are rewritten to the loop's view.
 * JMH's note on where it saved the fork's own result file is dropped: the loop keeps the result itself.
 * Everything else goes to the run folder's jmh.log, line by line, and to the terminal unless the run is quiet; a
 * quiet run's terminal still shows the lines the fork's own code addresses to the user ({@code [inferbench] ...},
 * such as a rate search's trail).
 */
final class ForkConsole extends OutputStream {
    private final PrintStream target;
    private final PrintStream log;
    private final boolean quiet;
    private final String forkLine;
    private final List<ForkHook> hooks;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    ForkConsole(RunConsole console, int fork, int forks, List<ForkHook> hooks) {
        this.hooks = hooks;
        this.target = console.terminal();
        this.log = console.log();
        this.quiet = console.quiet();
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
        log.flush();
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
        for (ForkHook h : hooks) {
            s = h.logLine(s);
        }
        log.print(s);
        if (!quiet || s.startsWith("[inferbench]")) {
            target.print(s);
        }
    }

    @Override
    public void close() {
        flush();
    }
}

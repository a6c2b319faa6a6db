package dev.inferbench.run;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;

/**
 * The plan before the first fork, then one line per fork: which fork of which cell, elapsed time and ETA. The
 * estimate starts from the iteration settings plus a guess for JVM start and model load, and is replaced by the
 * measured mean fork time once forks have finished.
 */
final class Progress {
    /** JVM start, model load and the output check before JMH's first iteration: a guess until forks are measured. */
    private static final double STARTUP_GUESS_S = 5;

    private final PrintStream out;
    private final long start = System.nanoTime();
    private final double plannedForkSeconds;
    private double measuredSeconds;
    private int measuredForks;

    Progress(PrintStream out, double iterationSeconds) {
        this.out = out;
        this.plannedForkSeconds = iterationSeconds + STARTUP_GUESS_S;
    }

    void plan(int cells, int forksPerCell, int remaining, int landed, int skipped, String folder) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                "[inferbench] plan: %d cell%s x %d fork%s", cells, cells == 1 ? "" : "s", forksPerCell,
                forksPerCell == 1 ? "" : "s"));
        if (landed > 0) {
            sb.append(String.format(Locale.ROOT, ", %d fork%s already landed", landed, landed == 1 ? "" : "s"));
        }
        if (skipped > 0) {
            sb.append(String.format(Locale.ROOT, ", %d cell%s skipped", skipped, skipped == 1 ? "" : "s"));
        }
        sb.append(String.format(Locale.ROOT, "; %d fork%s to run, about %s; results in %s", remaining,
                remaining == 1 ? "" : "s", clock(remaining * forkSeconds()), folder));
        out.println(sb);
    }

    void fork(int done, int total, int cellIndex, int cells, Cell cell, int fork, int forks) {
        double elapsed = (System.nanoTime() - start) / 1e9;
        int left = total - done;
        out.printf(Locale.ROOT, "[inferbench] fork %d/%d: cell %d/%d %s, fork %d of %d; elapsed %s, ETA %s%n",
                done + 1, total, cellIndex, cells, cell.label(), fork, forks, clock(elapsed), clock(left * forkSeconds()));
    }

    void finished(double seconds) {
        measuredSeconds += seconds;
        measuredForks++;
    }

    double forkSeconds() {
        return measuredForks == 0 ? plannedForkSeconds : measuredSeconds / measuredForks;
    }

    Duration elapsed() {
        return Duration.ofNanos(System.nanoTime() - start);
    }

    static String clock(double seconds) {
        long s = Math.round(seconds);
        return s >= 3600 ? String.format(Locale.ROOT, "%dh%02dm", s / 3600, s / 60 % 60)
                : String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
    }
}

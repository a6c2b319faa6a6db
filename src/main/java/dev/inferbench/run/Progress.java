package dev.inferbench.run;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Executors;
import dev.inferbench.cell.Cell;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.cell.VaryingParams;
import java.util.List;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;

/**
 * The plan before the first fork, then which fork of which cell runs, elapsed time and ETA. The estimate starts
 * from the iteration settings plus a guess for JVM start and model load, and is replaced by the measured mean fork
 * time once forks have finished. On a terminal where JMH is silent ({@code -v SILENT}) it is one status line
 * redrawn in place every second; otherwise (JMH's own lines scrolling by, or output to a file or pipe) one plain
 * line per fork.
 */
final class Progress implements AutoCloseable {
    /** JVM start, model load and the output check before JMH's first iteration: a guess until forks are measured. */
    private static final double STARTUP_GUESS_S = 5;

    private final PrintStream out;
    private final boolean inPlace;
    private final long start = System.nanoTime();
    private final ScheduledExecutorService ticker;
    private volatile String status;
    private volatile double forkStartedAt;
    private final double plannedForkSeconds;
    private double measuredSeconds;
    private int measuredForks;

    /** @param iterationSeconds what a fork measures, in s; NaN when that is unknown before one has run */
    Progress(PrintStream out, double iterationSeconds, boolean inPlace) {
        this.out = out;
        this.inPlace = inPlace;
        this.plannedForkSeconds = iterationSeconds + STARTUP_GUESS_S;
        this.ticker = inPlace ? Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "inferbench-progress");
            t.setDaemon(true);
            return t;
        }) : null;
        if (inPlace) {
            ticker.scheduleAtFixedRate(this::redraw, 1, 1, TimeUnit.SECONDS);
        }
    }

    /** A line of its own (a skip, a failure), above the status line when there is one. */
    synchronized void println(String line) {
        out.print(inPlace ? "\r\033[K" : "");
        out.println(line);
        redraw();
    }

    private synchronized void redraw() {
        if (inPlace && status != null) {
            double elapsed = (System.nanoTime() - start) / 1e9;
            double etaNow = Math.max(0, remainingAtStart - (elapsed - forkStartedAt)); // NaN stays NaN: unknown
            out.print("\r\033[K" + status + "; elapsed " + clock(elapsed) + ", ETA " + clock(etaNow));
            out.flush();
        }
    }

    private volatile double remainingAtStart;

    @Override
    public synchronized void close() {
        if (ticker != null) {
            ticker.shutdownNow();
        }
        if (inPlace && status != null) {
            out.println();
        }
        status = null;
    }

    /**
     * @param unknown of the {@code remaining} forks, those whose time is not known before one has run (closed-loop
     *                users, whose pace is the service's): left out of the estimate, and said so
     */
    void plan(int cells, int forksPerCell, int remaining, int unknown, int landed, int skipped, String folder) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                "[inferbench] plan: %d cell%s x %d fork%s", cells, cells == 1 ? "" : "s", forksPerCell,
                forksPerCell == 1 ? "" : "s"));
        if (landed > 0) {
            sb.append(String.format(Locale.ROOT, ", %d fork%s already landed", landed, landed == 1 ? "" : "s"));
        }
        if (skipped > 0) {
            sb.append(String.format(Locale.ROOT, ", %d cell%s skipped", skipped, skipped == 1 ? "" : "s"));
        }
        sb.append(String.format(Locale.ROOT, "; %d fork%s to run, ", remaining, remaining == 1 ? "" : "s"));
        if (unknown == 0 || remaining == 0) {
            sb.append("about ").append(clock(remaining * forkSeconds()));
        } else if (unknown < remaining) {
            sb.append(String.format(Locale.ROOT, "about %s for %d of them, and %d fork%s of closed-loop users whose"
                    + " time is not known until one has run", clock((remaining - unknown) * forkSeconds()),
                    remaining - unknown, unknown, unknown == 1 ? "" : "s"));
        } else {
            sb.append("time not known until one has run (closed-loop users: their requests take what the service"
                    + " takes)");
        }
        sb.append("; results in ").append(folder);
        println(sb.toString());
    }

    /** {@code name}: the cell by the params that vary in the run ({@link #name}). */
    synchronized void fork(int done, int total, int cellIndex, int cells, String name, int fork, int forks) {
        double elapsed = (System.nanoTime() - start) / 1e9;
        int left = total - done;
        String line = String.format(Locale.ROOT, "[inferbench] fork %d/%d: cell %d/%d %s, fork %d of %d", done + 1,
                total, cellIndex, cells, name, fork, forks);
        if (inPlace) {
            status = line;
            forkStartedAt = elapsed;
            remainingAtStart = left * forkSeconds();
            redraw();
        } else {
            out.printf(Locale.ROOT, "%s; elapsed %s, ETA %s%n", line, clock(elapsed), clock(left * forkSeconds()));
        }
    }

    /** A spare fork starts: named as a spare of its cell, never as a fork past the planned count. */
    synchronized void spare(int done, String name, int fork, int spare, int spares) {
        double elapsed = (System.nanoTime() - start) / 1e9;
        String line = String.format(Locale.ROOT, "[inferbench] %s, fork %d: spare %d of %d", name, fork, spare, spares);
        if (inPlace) {
            status = line;
            forkStartedAt = elapsed;
            remainingAtStart = 0;
            redraw();
        } else {
            out.printf(Locale.ROOT, "%s; elapsed %s%n", line, clock(elapsed));
        }
    }

    /**
     * A cell as the progress line names it: by the params that vary in the run, with the benchmark when several
     * run; a run of one cell by its model (or benchmark).
     */
    static String name(Cell cell, List<Cell> cells, VaryingParams varying) {
        boolean benchmarks = cells.stream().map(Cell::benchmark).distinct().count() > 1;
        String params = varying.name(cell.params());
        String what = benchmarks ? cell.shortName() : "";
        if (params.isEmpty() && !benchmarks) {
            what = cell.params().getOrDefault(CellSpec.MODEL, cell.shortName());
        }
        return (what + " " + params).strip();
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

    /** {@code 1m05s}, or "unknown" for NaN (no fork measured yet, and none planned). */
    static String clock(double seconds) {
        if (Double.isNaN(seconds)) {
            return "unknown";
        }
        long s = Math.round(seconds);
        return s >= 3600 ? String.format(Locale.ROOT, "%dh%02dm", s / 3600, s / 60 % 60)
                : String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
    }
}

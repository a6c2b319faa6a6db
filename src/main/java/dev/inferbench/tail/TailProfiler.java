package dev.inferbench.tail;

import dev.inferbench.AtomicFile;
import dev.inferbench.metrics.FigureProfiler;
import dev.inferbench.metrics.Figures;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code --tail} in the fork: a JFR recording of what can slow a call ({@link JvmEvents}) from the first iteration on,
 * and after the fork's last measured iteration its tail: every caller's slow calls ({@link SlowCalls}) of the
 * measured iterations attributed to what overlapped them ({@link Attribution}), the fork's tail table as figures
 * ({@link TailMetrics}, each fork's last value its own) and its slowest calls with their causes and the JVM's episodes
 * in {@value SlowCallsFile#NAME} beside the recording ({@code events.jfr}) in the folder {@link SlowCalls#PROPERTY}
 * names. Without that property it does nothing. The recording is read once, after the last measured iteration, and
 * not after each: reading it compiles JFR's reader on the JIT's threads, which would otherwise take the CPU from the
 * next iteration's calls (on a machine with as many cores as the engine's threads, a cost of the tool in its figure).
 */
public final class TailProfiler extends FigureProfiler {
    private JvmEvents events;
    private final List<SlowCall> measured = new ArrayList<>();
    private final List<long[]> windows = new ArrayList<>();
    private long callsMade;
    private long lost;
    private long windowStart;
    private int measuredIterations;
    private boolean failed;

    public TailProfiler() {
        super("--tail: each slow call and what the JVM did during it (JFR), attributed");
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        if (!SlowCalls.enabled() || failed) {
            return;
        }
        if (events == null) {
            events = JvmEvents.start();
        }
        windowStart = System.nanoTime();
    }

    @Override
    protected void figures(Iteration it, Figures out) {
        if (events == null || failed) {
            return;
        }
        long windowEnd = System.nanoTime();
        boolean counted = it.params().getType() == IterationType.MEASUREMENT;
        long firstCall = Long.MAX_VALUE;
        for (SlowCalls caller : SlowCalls.all()) {
            SlowCalls.Drained d = caller.drain();
            if (counted) {
                measured.addAll(d.calls());
                callsMade += d.callsMade();
                lost += d.lost();
                if (d.firstStart() >= 0) {
                    firstCall = Math.min(firstCall, d.firstStart());
                }
            }
        }
        if (!counted) {
            return;
        }
        // from the first recorded call on: a serving step's warm-up requests come first, and a cause planted in
        // one of those is no call of the record's
        windows.add(new long[] {Math.max(windowStart, firstCall == Long.MAX_VALUE ? 0 : firstCall), windowEnd});
        if (++measuredIterations < it.params().getCount() || callsMade == 0) {
            return; // the recording is read after the last measured iteration only
        }
        try {
            Path dir = Path.of(System.getProperty(SlowCalls.PROPERTY));
            Files.createDirectories(dir);
            Path jfr = dir.resolve("events.jfr");
            AtomicFile.writeVia(jfr, events::dump);
            JvmEvents.Read read = JvmEvents.read(jfr);
            List<Attribution.Attributed> calls = new Attribution(read.episodes()).of(measured);
            ForkTail table = new ForkTail(calls, callsMade);
            List<ForkTail.Planted> planted = read.planted().stream().filter(p -> inWindows(p.at())).toList();
            Map<String, Double> figures = table.figures(planted);
            figures.forEach((name, value) -> out.kept(name, value, unit(name)));
            SlowCallsFile.write(dir.resolve(SlowCallsFile.NAME), table, figures, lost, windows, read.episodes());
        } catch (IOException | RuntimeException e) {
            // the fork's own figures stand; only its tail is lost, and the console says so once
            failed = true;
            System.out.println("[inferbench] --tail: this fork's tail was not recorded (" + e + ")");
        }
    }

    private boolean inWindows(long at) {
        for (long[] w : windows) {
            if (at >= w[0] && at <= w[1]) {
                return true;
            }
        }
        return false;
    }

    static String unit(String metric) {
        if (metric.equals(TailMetrics.CALLS) || metric.equals(TailMetrics.MISSED)) {
            return "calls";
        }
        return metric.equals(TailMetrics.P99) || metric.startsWith(TailMetrics.PREFIX + "without.") ? "ms" : "%";
    }
}

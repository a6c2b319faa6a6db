package dev.inferbench.metrics;

import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.IterationResult;

import java.util.concurrent.TimeUnit;

/**
 * The mean time per call of a SampleTime iteration over <em>every</em> call, {@value #LABEL}, in the benchmark's
 * unit: the measured window divided by the calls JMH counted in it. SampleTime times only a sample of the calls when
 * they are short (at most about 20 timestamps per ms, fewer as its buffer halves), so the mean of its histogram is
 * that of the sampled calls, with the timer's own cost on each; for calls of 2-4 µs it read 14-35 % above
 * AverageTime's mean of the same cell. JMH counts every call of the window whether it timed it or not, and the window
 * is the iteration's time (JMH ends it by a timer), so this mean needs no sampling. An iteration of fewer than
 * {@value #WINDOW_CALLS} calls keeps the histogram's mean: SampleTime timed each of its (long) calls.
 */
public final class CallMeanProfiler extends FigureProfiler {
    public static final String LABEL = "mean.all";
    /**
     * Calls an iteration must hold for the window to give the mean: its last call ends after the window, so the
     * window is off by less than one call, 1/1,000 from here on. Fewer, longer calls are all timed by SampleTime.
     */
    static final long WINDOW_CALLS = 1000;

    public CallMeanProfiler() {
        super("SampleTime's mean over every call: iteration time / calls counted");
    }

    @Override
    protected void figures(Iteration it, Figures out) {
        // only SampleTime needs it: AverageTime and SingleShotTime time every call already
        double nanos = it.benchmark().getMode() == Mode.SampleTime
                ? meanNanos(it.benchmark(), it.params(), it.result()) : Double.NaN;
        if (!Double.isNaN(nanos)) { // else the iteration may have no primary result to take the unit from
            out.add(LABEL, nanos / it.benchmark().getTimeUnit().toNanos(1), it.result().getScoreUnit());
        }
    }

    /**
     * The mean time per call of the iteration in ns, the one figure samples/s and GMAC/s are made from: over every
     * call for SampleTime, the primary score for the other time modes; NaN for throughput, failed iterations and
     * benchmarks that counted their own calls ({@link CpuProfiler#CALLS}: their rate is their own figure).
     */
    static double meanNanos(BenchmarkParams benchmarkParams, IterationParams iterationParams, IterationResult result) {
        if (result.getRawPrimaryResults().isEmpty() || !benchmarkParams.getMode().name().endsWith("Time")
                || CpuProfiler.CALLS.sum() > 0) {
            // a benchmark that made its own calls (an open-loop serving step) has no closed-loop time per call
            return Double.NaN;
        }
        if (benchmarkParams.getMode() != Mode.SampleTime) {
            double perCall = result.getPrimaryResult().getScore();
            return perCall > 0 ? perCall * benchmarkParams.getTimeUnit().toNanos(1) : Double.NaN;
        }
        long calls = result.getMetadata() == null ? 0 : result.getMetadata().getMeasuredOps();
        if (calls <= 0) {
            return Double.NaN;
        }
        if (calls < WINDOW_CALLS) {
            // long calls: SampleTime timed every one, and the window would be off by up to a call (its last call
            // ends after the window, so 6 calls of 188 ms read 167 ms each in a 1 s window)
            return result.getPrimaryResult().getScore() * benchmarkParams.getTimeUnit().toNanos(1);
        }
        // every thread runs for the whole window: the window's thread-time over all calls
        return iterationParams.getTime().convertTo(TimeUnit.NANOSECONDS) * (double) benchmarkParams.getThreads() / calls;
    }
}

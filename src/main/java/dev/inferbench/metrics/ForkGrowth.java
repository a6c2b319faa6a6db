package dev.inferbench.metrics;

import dev.inferbench.stats.LineFit;

import java.util.Arrays;

/**
 * The resident set over a fork's measured calls, and how it moved: each measured iteration's readings placed on one
 * axis of calls (the iteration's calls spread evenly over its span, after the calls of the iterations before it), then
 * cut in two halves of equal calls, a least-squares line through each.
 *
 * <p>Why two halves: memory a process needs once (the young generation touched for the first time, an arena growing to
 * the largest batch it has seen, a lazily built kernel cache) grows early and stops; a leak grows as long as calls
 * are made. The later half's slope is the growth figure ({@link MemoryProfiler#RSS_GROWTH}); the earlier half's growth
 * ({@link MemoryProfiler#RSS_GROWN_EARLY}) says whether there was warm-up in the measured calls. Growth between
 * iterations (JMH's own work, a garbage collection between them) is not on the axis: only readings taken while the
 * calls ran are.
 */
final class ForkGrowth {
    private double[] calls = new double[256];
    private double[] mib = new double[256];
    private int n;
    private long callsBefore;

    /** Adds one measured iteration: its readings and the calls it counted. */
    void add(RssSeries s, long iterationCalls) {
        if (s.isEmpty() || iterationCalls <= 0) {
            return;
        }
        long t0 = s.nanos()[0];
        double span = s.nanos()[s.nanos().length - 1] - t0;
        for (int i = 0; i < s.nanos().length; i++) {
            double at = span > 0 ? (s.nanos()[i] - t0) / span : i == 0 ? 0 : 1;
            put(callsBefore + at * iterationCalls, s.mib()[i]);
        }
        callsBefore += iterationCalls;
    }

    private void put(double x, double y) {
        if (n == calls.length) {
            calls = Arrays.copyOf(calls, 2 * n);
            mib = Arrays.copyOf(mib, 2 * n);
        }
        calls[n] = x;
        mib[n] = y;
        n++;
    }

    /** The calls counted so far. */
    long calls() {
        return callsBefore;
    }

    /** MiB per call over the later half of the calls; NaN with fewer than two readings at distinct calls there. */
    double lateSlope() {
        return half(true).slope();
    }

    /** MiB per call over the earlier half of the calls. */
    double earlySlope() {
        return half(false).slope();
    }

    private LineFit half(boolean late) {
        double mid = callsBefore / 2.0;
        int k = 0;
        double[] x = new double[n];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            // the reading at the midpoint belongs to both halves: each line then spans its whole half
            if (late ? calls[i] >= mid : calls[i] <= mid) {
                x[k] = calls[i];
                y[k] = mib[i];
                k++;
            }
        }
        return LineFit.of(Arrays.copyOf(x, k), Arrays.copyOf(y, k));
    }
}

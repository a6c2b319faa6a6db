package dev.inferbench.bench;

import dev.inferbench.BenchException;
import org.openjdk.jmh.infra.Blackhole;

import java.util.Arrays;

/**
 * A calibration aid: a known extra cost per call, so that {@code compare} and {@code tools/calibrate} can be shown
 * to catch a slowdown of a given size: {@code -jvmArgsAppend -Dinferbench.slowdown=5} makes every call about 5 %
 * slower. A system property rather than a {@code @Param} on purpose: the cells keep the same params, so a run with
 * the slowdown compares cell for cell against one without, exactly as two builds would.
 *
 * <p>The extra cost is work, not a wait: {@link Blackhole#consumeCPU} burns a fixed number of tokens, sized in the
 * trial setup from the call's own median time on this machine (after warm-up calls) and the measured cost of a
 * token. Busy work keeps the thread on the CPU as the call does, so contention from other processes stretches both
 * alike and the slowdown stays a stable fraction of the call; a sleep or a clock-driven spin would not (sleep
 * resolution is ~50-100 us; a clock spin adds a fixed time however slow the machine is at that moment).
 */
final class InjectedSlowdown {
    private static final int WARM_CALLS = 5;
    private static final int TIMED_CALLS = 11;
    /**
     * Warm-up before the call is timed, at least: five calls are not enough for a µs-scale call, whose first calls run
     * interpreted (mlp-tiny's median then read about three times its measured time, and "10 %" injected 30 %).
     */
    private static final long WARM_NANOS = 500_000_000L;
    /** Calls timed for the median, at least {@value #TIMED_CALLS} and about this long. */
    private static final long TIMED_NANOS = 100_000_000L;
    private static final long PROBE_TOKENS = 200_000;

    static final String PROPERTY = "inferbench.slowdown";

    private InjectedSlowdown() {
    }

    /** The slowdown asked for, in percent; 0 when the property is not set. */
    static double percent() {
        String v = System.getProperty(PROPERTY, "0").trim().replace("%", "");
        try {
            double p = Double.parseDouble(v);
            if (p >= 0 && p <= 1000) {
                return p;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new CellFailure(new BenchException("-D" + PROPERTY + "='" + v
                + "' is not a percentage from 0 to 1000; expected e.g. -D" + PROPERTY + "=5"));
    }

    /** Tokens for {@link Blackhole#consumeCPU} that cost {@code percent} % of one {@code call}; 0 for 0 %. */
    static long tokens(double percent, Runnable call) {
        if (percent <= 0) {
            return 0;
        }
        long warmEnd = System.nanoTime() + WARM_NANOS;
        long single = 0;
        for (int i = 0; i < WARM_CALLS || System.nanoTime() < warmEnd; i++) {
            long t0 = System.nanoTime();
            call.run();
            single = System.nanoTime() - t0;
        }
        int times = (int) Math.max(TIMED_CALLS, Math.min(100_001, TIMED_NANOS / Math.max(1, single)));
        double callNanos = medianNanos(call, times);
        for (int i = 0; i < 3; i++) {
            Blackhole.consumeCPU(PROBE_TOKENS);
        }
        double tokenNanos = medianNanos(() -> Blackhole.consumeCPU(PROBE_TOKENS), TIMED_CALLS) / PROBE_TOKENS;
        long tokens = Math.round(callNanos * percent / 100 / tokenNanos);
        System.out.printf(java.util.Locale.ROOT, "[inferbench] slowdown %.3g %%: a call's median %.0f ns over %d calls;"
                + " %d tokens of busy work at %.3f ns each after every call%n", percent, callNanos, times, tokens,
                tokenNanos);
        return tokens;
    }

    private static double medianNanos(Runnable r, int times) {
        long[] t = new long[times];
        for (int i = 0; i < times; i++) {
            long t0 = System.nanoTime();
            r.run();
            t[i] = System.nanoTime() - t0;
        }
        Arrays.sort(t);
        return t[times / 2];
    }
}

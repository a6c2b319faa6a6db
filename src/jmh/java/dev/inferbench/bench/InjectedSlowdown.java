package dev.inferbench.bench;

import dev.inferbench.BenchException;

/**
 * A calibration aid: a known extra cost per call, so that {@code compare} and {@code tools/calibrate} can be shown
 * to catch a slowdown of a given size: {@code -jvmArgsAppend -Dinferbench.slowdown=5} makes the mean call 5 % slower.
 * A system property rather than a {@code @Param} on purpose: the cells keep the same params, so a run with the
 * slowdown compares cell for cell against one without, exactly as two builds would.
 *
 * <p>The extra cost is the call itself, made again: each caller makes one extra call every {@code 100 / P} calls (a
 * running share, so 3 % is an extra call after the 33rd, 67th, 100th ... call), which adds exactly P % of the mean
 * call's work whatever the machine, the call's length or the CPU's pipeline. Busy work sized from a timed probe did
 * not: a few dozen {@code Blackhole.consumeCPU} tokens after a 2 µs mlp-tiny call, sized as 5 %, read +1.6 % in a
 * 45-pair comparison, and sized as 3 % made the calls 1.5 % faster (0.985 [0.977, 0.994], 83 pairs): work that small
 * overlaps the call's own in the pipeline. What the aid does not imitate: a slowdown spread evenly over calls. The
 * extra calls land on a few operations (P % of them take twice as long), so percentiles above {@code 100 - P} move
 * more than the mean; the gate's default metric is the mean.
 */
final class InjectedSlowdown {
    static final String PROPERTY = "inferbench.slowdown";

    /** The extra work per call in millionths of a call, counted in whole numbers so that none is lost to rounding. */
    private static final long WHOLE = 1_000_000;
    private final long share;
    private long owed;

    private InjectedSlowdown(double percent) {
        this.share = Math.round(percent / 100 * WHOLE);
    }

    /** One caller's schedule of extra calls for the slowdown asked for ({@link #PROPERTY}); none when unset. */
    static InjectedSlowdown ofProperty() {
        return new InjectedSlowdown(percent());
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

    /** The line a fork prints once when the aid is on; empty when it is off. */
    static String describe(double percent) {
        return percent <= 0 ? "" : String.format(java.util.Locale.ROOT, "[inferbench] slowdown %.3g %%: one extra call"
                + " every %.3g calls, so the mean call does %.3g %% more work", percent, 100 / percent, percent);
    }

    /** How many extra calls are due after this call: mostly 0, 1 every {@code 100 / P} calls (more above 100 %). */
    int extraCalls() {
        if (share == 0) {
            return 0;
        }
        owed += share;
        int due = (int) (owed / WHOLE);
        owed %= WHOLE;
        return due;
    }
}

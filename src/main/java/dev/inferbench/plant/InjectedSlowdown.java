package dev.inferbench.plant;

import dev.inferbench.BenchException;

import java.util.function.LongSupplier;

/**
 * A calibration aid: a known extra cost per call, so that {@code compare} and {@code variance --ab} can be shown
 * to catch a slowdown of a given size: {@code -jvmArgsAppend -Dinferbench.slowdown=5} makes the mean call 5 % slower.
 * A system property rather than a {@code @Param} on purpose: the cells keep the same params, so a run with the
 * slowdown compares cell for cell against one without, exactly as two builds would.
 *
 * <p>Two ways, chosen per call by the call's own length:
 * <ul>
 * <li><b>A call of {@value #TIMED_FROM_MS} ms or more</b> is followed by a wait of P % of its own time, spun on the
 * clock: every such call is exactly P % longer, however few calls a fork makes. (Extra calls cannot plant a few
 * percent there: a fork of such calls makes only tens of them, so P % of them rounds to one extra call or none.)</li>
 * <li><b>A shorter call</b> is made again now and then: each caller makes one extra call every {@code 100 / P} short
 * calls (a running share, so 3 % is an extra call after the 33rd, 67th, 100th ... call), P % more calls of the
 * same work. Once a call is seen to be short, the clock is read on one call in {@value #CHECK_EVERY} only (to notice
 * calls that grow past the limit): two clock reads a call would cost about a percent of a µs call themselves, which
 * the aid would otherwise plant on top of its P %. In one JVM ({@code calibrate aid-check}) the schedule is held to its label in one JVM; what
 * it reads there and across forks is in docs/evidence/calibration-aid.md.
 * A wait or busy work that short does not work either: a few dozen {@code Blackhole.consumeCPU} tokens overlap the
 * call's own work in the pipeline and do not add what they are sized as (docs/evidence/calibration-aid.md), and a
 * clock read costs about as much as the share it would time. Such calls run thousands to a fork, so the schedule's
 * step is far below a percent.</li>
 * </ul>
 * What the aid does not imitate: a slowdown spread evenly over short calls. Their extra calls land on a few
 * operations (P % of them take twice as long), so percentiles above {@code 100 - P} move more than the mean; the
 * gate's default metric is the mean.
 */
public final class InjectedSlowdown {
    public static final String PROPERTY = "inferbench.slowdown";

    /** Calls at least this long are lengthened by a timed wait; shorter ones by extra calls. */
    static final long TIMED_FROM_MS = 1;
    private static final long TIMED_FROM_NS = TIMED_FROM_MS * 1_000_000;
    /** The extra work per call in millionths of a call, counted in whole numbers so that none is lost to rounding. */
    private static final long WHOLE = 1_000_000;
    /** Once calls are short, the clock is read on one call in this many. */
    static final int CHECK_EVERY = 64;
    /** {@link #start()}'s answer for a call it did not time. */
    private static final long UNTIMED = Long.MIN_VALUE;
    private final long share;
    private final LongSupplier clock;
    private long owed;
    /** Whether the last timed call was long (or none was timed yet): every call is then timed. */
    private boolean timed = true;
    private int sinceCheck;

    public InjectedSlowdown(double percent, LongSupplier clock) {
        this.share = Math.round(percent / 100 * WHOLE);
        this.clock = clock;
    }

    /** One caller's schedule of extra calls for the slowdown asked for ({@link #PROPERTY}); none when unset. */
    public static InjectedSlowdown ofProperty() throws BenchException {
        return new InjectedSlowdown(percent(), System::nanoTime);
    }

    /** The slowdown asked for, in percent; 0 when the property is not set. */
    public static double percent() throws BenchException {
        String v = System.getProperty(PROPERTY, "0").trim().replace("%", "");
        double p = number(v);
        if (p >= 0 && p <= 1000) {
            return p;
        }
        throw new BenchException("-D" + PROPERTY + "='" + v
                + "' is not a percentage from 0 to 1000; expected e.g. -D" + PROPERTY + "=5");
    }

    /** A percentage as written, with or without its sign ("5", " 5% "); NaN when it is not a number. */
    public static double number(String text) {
        try {
            return Double.parseDouble(text.trim().replace("%", ""));
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    /** The line a fork prints once when the aid is on; empty when it is off. */
    public static String describe(double percent) {
        return percent <= 0 ? "" : String.format(java.util.Locale.ROOT, "[inferbench] slowdown %.3g %%: one extra call"
                + " every %.3g calls, so the mean call does %.3g %% more work", percent, 100 / percent, percent);
    }

    /**
     * When the call about to be made starts, for {@link #extraCalls(long)}; 0 (and no clock read) when off, and no
     * clock read either for a short call between checks.
     */
    public long start() {
        if (share == 0) {
            return 0;
        }
        if (!timed && ++sinceCheck < CHECK_EVERY) {
            return UNTIMED;
        }
        sinceCheck = 0;
        return clock.getAsLong();
    }

    /**
     * After the call that began at {@code start}: a call of {@value #TIMED_FROM_MS} ms or more is first made P % longer
     * by a spin on the clock and owes nothing; a shorter one returns how many extra calls are due, mostly 0, 1 every
     * {@code 100 / P} short calls (more above 100 %).
     */
    public int extraCalls(long start) {
        if (share == 0) {
            return 0;
        }
        if (start == UNTIMED) {
            return owedCalls();
        }
        long now = clock.getAsLong();
        long took = now - start;
        timed = took >= TIMED_FROM_NS;
        if (timed) {
            long until = now + Math.round((double) took * share / WHOLE);
            while (clock.getAsLong() - until < 0) {
                Thread.onSpinWait();
            }
            return 0;
        }
        return owedCalls();
    }

    /** The extra calls due after one more short call: the running share's whole part. */
    int owedCalls() {
        if (share == 0) {
            return 0;
        }
        owed += share;
        int due = (int) (owed / WHOLE);
        owed %= WHOLE;
        return due;
    }
}

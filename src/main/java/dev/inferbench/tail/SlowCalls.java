package dev.inferbench.tail;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One caller's record of its slow calls ({@code --tail}): the start and end ({@link System#nanoTime}) of each call
 * slower than a running threshold, the 90th percentile of the caller's last {@value #WINDOW} calls (every call until
 * that many have run; the window's own durations, sorted once a window), in arrays made once, so that nothing is allocated on the measured path. Calls above the fork's
 * p99 are above its p90, so every one of them is kept while the threshold follows the calls; what the ring dropped
 * between two drains ({@link #drain}) is counted.
 *
 * <p>The calling thread's CPU clock costs far more to read than the wall clock (a system call; microseconds on some
 * VMs), so it is read at the end of each call above the window's 99th percentile, and of any call ending
 * {@value #CPU_EVERY_US} µs or more after the last reading: a call of milliseconds has it read at every end, a call of
 * microseconds once in many calls. A call's time off its CPU is the wall time since that last reading less the CPU
 * time since, at most the call's own time: the calls between the two readings ran at full speed (they were not slow),
 * so what the thread lost is the slow call's. A kept call below the 99th percentile may have no reading; its time off
 * the CPU is then unknown.
 *
 * <p>Off (no {@link #PROPERTY}) a caller holds {@link #OFF}: a field read and a branch before and after the call.
 */
public final class SlowCalls {
    /** The fork's folder for its slow calls; set by {@code --tail} on each fork's JVM, absent otherwise. */
    public static final String PROPERTY = "inferbench.tail";
    /** The calls whose 90th percentile is the threshold for the next as many. */
    static final int WINDOW = 512;
    static final int CAPACITY = 1 << 16;
    private static final int MASK = CAPACITY - 1;
    /** The longest the CPU clock goes unread, µs: its cost a share of the calls' time that stays small. */
    static final long CPU_EVERY_US = 200;
    private static final long CPU_EVERY_NS = CPU_EVERY_US * 1000;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final SlowCalls OFF = new SlowCalls();
    private static final List<SlowCalls> ALL = new CopyOnWriteArrayList<>();
    /** A serving step's callers' records, by caller index: made once a fork, bound to each step's threads. */
    private static final Map<Integer, SlowCalls> BY_CALLER = new ConcurrentHashMap<>();

    private final boolean on;
    /** The calling thread's id; a serving caller's record is bound anew to each step's thread ({@link #forCaller}). */
    private long thread;
    private final long[] starts;
    private final long[] ends;
    private final long[] cpuFroms;
    private final long[] cpuUsed;
    private final long[] window;
    private int windowCalls;
    private long threshold;
    private long high;
    private long lastCpu;
    private long lastCpuAt;
    private long calls;
    private volatile long written;
    private long read;
    private long drainedCalls;
    /** The start of the first call since the last drain, kept or not; -1 before it. */
    private long firstStart = -1;

    private SlowCalls() {
        on = false;
        thread = 0;
        starts = ends = cpuFroms = cpuUsed = new long[0];
        window = new long[0];
    }

    private SlowCalls(long thread) {
        on = true;
        this.thread = thread;
        starts = new long[CAPACITY];
        ends = new long[CAPACITY];
        cpuFroms = new long[CAPACITY];
        cpuUsed = new long[CAPACITY];
        window = new long[WINDOW];
        lastCpuAt = System.nanoTime();
        lastCpu = THREADS.getCurrentThreadCpuTime();
    }

    /** Whether this JVM records slow calls. */
    public static boolean enabled() {
        String dir = System.getProperty(PROPERTY);
        return dir != null && !dir.isBlank();
    }

    /** The record of the calling thread's calls, made on the thread that makes them; {@link #OFF} when not asked. */
    public static SlowCalls forThisThread() {
        if (!enabled()) {
            return OFF;
        }
        SlowCalls s = new SlowCalls(Thread.currentThread().getId());
        ALL.add(s);
        return s;
    }

    /**
     * The record of the calling thread for a benchmark whose state all its {@code threads} share (a training step, a
     * pipeline request): a record has one writer, so it records only where that thread is the benchmark's only one,
     * and is {@link #OFF} otherwise or when not asked.
     */
    public static SlowCalls forSoleThread(int threads) {
        return threads == 1 ? forThisThread() : OFF;
    }

    /**
     * The record of caller {@code index} of an open-loop serving step, bound to the calling thread; {@link #OFF} when
     * not asked. Each step starts its callers on threads of its own, so a caller's record is made at its first step
     * (the warm-up's) and bound at each later one to the step's thread, its CPU clock read anew there; the profiler
     * drains it between iterations, after the step's threads have ended (one step an iteration).
     */
    public static SlowCalls forCaller(int index) {
        if (!enabled()) {
            return OFF;
        }
        SlowCalls s = BY_CALLER.computeIfAbsent(index, i -> {
            SlowCalls made = new SlowCalls(Thread.currentThread().getId());
            ALL.add(made);
            return made;
        });
        s.thread = Thread.currentThread().getId();
        s.resumes(); // the new thread's CPU clock
        return s;
    }

    /** A record of this thread's calls that no profiler drains but the caller: for a check in one JVM. */
    public static SlowCalls unlisted() {
        return new SlowCalls(Thread.currentThread().getId());
    }

    /** The record that records nothing, as a caller holds without {@link #PROPERTY}. */
    public static SlowCalls off() {
        return OFF;
    }

    /** How many calls this record has kept so far (0 when off). */
    public long kept() {
        return written;
    }

    /** Every caller's record in this JVM. */
    static List<SlowCalls> all() {
        return ALL;
    }

    /** A call's start: the clock, or 0 when off. */
    public long start() {
        return on ? System.nanoTime() : 0;
    }

    /** A call's end; the call is kept when it took at least the threshold. */
    public void end(long start) {
        if (on) {
            ended(start, System.nanoTime());
        }
    }

    /**
     * The caller waited (for a request) since its last call and is about to start one: its CPU clock is read now, so
     * that the call's time off the CPU is the call's own and never the wait's (the rule above takes the calls between
     * two readings to run back to back). One more read of the CPU clock a call; nothing when off.
     */
    public void resumes() {
        if (on) {
            lastCpuAt = System.nanoTime();
            lastCpu = THREADS.getCurrentThreadCpuTime();
        }
    }

    /**
     * A call that ran from {@code start} to {@code end}, both read by the caller on {@link System#nanoTime}'s clock
     * just now (a decoder's step between two tokens, whose times the request keeps anyway); nothing when off.
     */
    public void ended(long start, long end) {
        if (!on) {
            return;
        }
        long took = end - start;
        if (firstStart < 0) {
            firstStart = start;
        }
        calls++;
        long from = -1;
        long used = -1;
        if (took >= high || end - lastCpuAt >= CPU_EVERY_NS) {
            long cpu = THREADS.getCurrentThreadCpuTime();
            from = lastCpuAt;
            used = cpu - lastCpu;
            lastCpu = cpu;
            lastCpuAt = end;
        }
        if (took >= threshold) {
            int i = (int) (written & MASK);
            starts[i] = start;
            ends[i] = end;
            cpuFroms[i] = from;
            cpuUsed[i] = used;
            written = written + 1; // one writer: the caller's own thread
        }
        window[windowCalls] = took;
        if (++windowCalls == WINDOW) {
            Arrays.sort(window); // in place, once a window; an array this short is sorted without a buffer
            threshold = percentile(window, 90);
            high = percentile(window, 99);
            windowCalls = 0;
        }
    }

    /**
     * The {@code p}th percentile ({@code p} whole) of {@code sorted} durations: the shortest that at most {@code 100 - p}
     * % of them reach or pass. Exact, not a histogram's bucket: calls of a few µs that vary by less than a bucket's width
     * would all share the bucket, and all be kept.
     */
    static long percentile(long[] sorted, int p) {
        int n = sorted.length;
        int below = n - (int) (((long) n * (100 - p) + 99) / 100); // calls allowed under the threshold
        return below < n ? sorted[below] : Long.MAX_VALUE;
    }

    /** What a caller recorded between two drains. */
    /** {@code firstStart}: the first call's start since the drain before (every call, kept or not); -1 for none. */
    record Drained(List<SlowCall> calls, long callsMade, long lost, long firstStart) {
    }

    /**
     * The calls kept since the last drain, and how many calls were made and how many kept ones the ring overwrote.
     * Called between iterations, while the caller makes no calls.
     */
    Drained drain() {
        long w = written;
        long lost = Math.max(0, w - read - CAPACITY);
        List<SlowCall> out = new ArrayList<>((int) Math.min(w - read, CAPACITY));
        for (long n = read + lost; n < w; n++) {
            int i = (int) (n & MASK);
            out.add(new SlowCall(starts[i], ends[i], cpuFroms[i], cpuUsed[i], thread));
        }
        read = w;
        long made = calls - drainedCalls;
        drainedCalls = calls;
        long first = firstStart;
        firstStart = -1;
        return new Drained(out, made, lost, first);
    }
}

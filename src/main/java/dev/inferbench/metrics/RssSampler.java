package dev.inferbench.metrics;

import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Reads the resident set every {@value #DEFAULT_INTERVAL_MS} ms during a measured iteration, on a daemon thread of its
 * own, so that the memory figures describe the iteration's whole span rather than its end: {@link #start} at the
 * iteration's start, {@link #stop} at its end (each takes a reading too, so even an iteration shorter than the interval
 * has two). Between iterations the thread is parked and reads nothing. Readings after the benchmark said its calls
 * were over ({@link SetupRecord#callsEnded}: JMH runs the trial's teardown, which frees the model, inside the last
 * measured iteration) are dropped.
 *
 * <p>Cost: one read of /proc/self/statm (a few µs, allocating nothing: {@link StatmSource}) per interval, on a
 * thread that is otherwise asleep, i.e. about 0.01 % of one core at 20 ms; docs/evidence/memory-figures.md gives its
 * measured effect on µs calls. {@code -Dinferbench.rssSampleMs=N} sets the interval, 0 turns the thread off (the
 * two readings at the iteration's ends remain). A long iteration keeps at most {@value #CAPACITY} readings: when
 * full, every other one is dropped and the interval doubles.
 */
final class RssSampler {
    static final String PROPERTY = "inferbench.rssSampleMs";
    static final long DEFAULT_INTERVAL_MS = 20;
    static final long MAX_INTERVAL_MS = 10_000;
    static final int CAPACITY = 4096;

    /** The resident set now, kB; negative where it cannot be read. */
    interface Source {
        long rssKb();
    }

    private final Source source;
    private final LongSupplier clock;
    private final long intervalNanos;
    private final long[] nanos = new long[CAPACITY];
    private final long[] kb = new long[CAPACITY];
    private int count;
    private int stride = 1;
    private long ticks;
    private volatile boolean active;
    private Thread thread;

    /**
     * @param clock      nanoseconds, as System.nanoTime() gives them
     * @param intervalMs 0: no thread, readings only at the ends and from {@link #sampleNow}
     */
    RssSampler(Source source, LongSupplier clock, long intervalMs) {
        this.source = source;
        this.clock = clock;
        this.intervalNanos = intervalMs * 1_000_000;
    }

    /** The fork's sampler, at the interval {@code -Dinferbench.rssSampleMs} asks for (default 20 ms). */
    static RssSampler fromProperty() {
        long ms = intervalMs(System.getProperty(PROPERTY, String.valueOf(DEFAULT_INTERVAL_MS)));
        // the launcher refuses a bad value before any fork starts (JmhOptions); a fork started by hand gets the default
        return new RssSampler(StatmSource.open(), System::nanoTime, ms < 0 ? DEFAULT_INTERVAL_MS : ms);
    }

    /** The interval {@code value} asks for, ms; -1 when it is not a whole number from 0 to {@value #MAX_INTERVAL_MS}. */
    static long intervalMs(String value) {
        try {
            long ms = Long.parseLong(value.trim());
            return ms >= 0 && ms <= MAX_INTERVAL_MS ? ms : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    void start() {
        synchronized (this) {
            count = 0;
            stride = 1;
            ticks = 0;
            add();
            active = true;
        }
        if (intervalNanos <= 0) {
            return;
        }
        if (thread == null) {
            thread = new Thread(this::loop, "inferbench-rss-sampler");
            thread.setDaemon(true);
            thread.start();
        } else {
            LockSupport.unpark(thread);
        }
    }

    /** Takes a reading now (the sampler's thread does this every interval). */
    synchronized void sampleNow() {
        if (active) {
            add();
        }
    }

    /** Ends the iteration: its readings up to the end of the calls. */
    synchronized RssSeries stop() {
        if (active) {
            add();
        }
        active = false;
        long end = SetupRecord.callsEndedNanos();
        int n = count;
        while (n > 1 && end != 0 && nanos[n - 1] - end > 0) {
            n--;
        }
        double[] mib = new double[n];
        for (int i = 0; i < n; i++) {
            mib[i] = kb[i] / 1024.0;
        }
        return new RssSeries(Arrays.copyOf(nanos, n), mib);
    }

    private void loop() {
        while (true) {
            if (!active) {
                LockSupport.park(this);
                continue;
            }
            LockSupport.parkNanos(this, intervalNanos);
            tick();
        }
    }

    private synchronized void tick() {
        if (active && ++ticks % stride == 0) {
            add();
        }
    }

    /** One reading; none after the calls ended or where /proc cannot be read. */
    private void add() {
        long now = clock.getAsLong();
        long end = SetupRecord.callsEndedNanos();
        if (end != 0 && now - end > 0) {
            return;
        }
        long rss = source.rssKb();
        if (rss < 0) {
            return;
        }
        if (count == CAPACITY) {
            for (int i = 0; i < CAPACITY / 2; i++) {
                nanos[i] = nanos[2 * i];
                kb[i] = kb[2 * i];
            }
            count = CAPACITY / 2;
            stride *= 2;
        }
        nanos[count] = now;
        kb[count] = rss;
        count++;
    }
}

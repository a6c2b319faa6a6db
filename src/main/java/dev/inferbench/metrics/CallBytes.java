package dev.inferbench.metrics;

import java.lang.management.ManagementFactory;
import java.util.SplittableRandom;

/**
 * The Java heap bytes of the calls themselves: the calling thread's allocation counter read just before and just
 * after a call, nothing between calls counted. JMH's {@code gc.alloc.rate.norm} divides everything the JVM allocated
 * in an iteration (SampleTime's histogram buckets, the profilers' reads of /proc, result objects) by that iteration's
 * calls, so a model of few long calls looked like one that allocates more; this figure does not move with the call's
 * length.
 *
 * <p>Each caller owns a {@link Sampler}. Reading the counter costs about 40 ns, twice per call: calls of 100 µs and more
 * are all read, shorter ones one in a stride chosen so that the reads cost at most {@value #MAX_OVERHEAD_PPM} ppm of
 * the calls' time (about 1 in 30 of 4 µs calls). Which calls are read is a seeded random draw, so a call that
 * allocates every k-th time is read as often as any other, and the mean over the read calls is the mean over all.
 * {@link CallBytesProfiler} reports it per measured iteration.
 */
public final class CallBytes {
    /** The reads' share of the calls' time at most, in parts per million. */
    static final long MAX_OVERHEAD_PPM = 1000;
    /** Two allocation-counter reads and two clock reads, in ns, rounded up. */
    static final long READ_COST_NANOS = 130;
    private static final int MAX_STRIDE = 4096;
    private static final com.sun.management.ThreadMXBean THREADS = threads();
    private static final Handoff.Tally BYTES = new Handoff.Tally();
    private static final Handoff.Tally READ = new Handoff.Tally();

    private CallBytes() {
    }

    /** A new sampler for one caller; never shared between threads that call at the same time. */
    public static Sampler sampler(long seed) {
        return new Sampler(seed);
    }

    static void reset() {
        BYTES.reset();
        READ.reset();
    }

    /** Bytes per read call since the last reset; NaN when no call was read. */
    static double perCall() {
        long read = READ.sum();
        return read == 0 ? Double.NaN : BYTES.sum() / (double) read;
    }

    /** Calls read since the last reset. */
    static long callsRead() {
        return READ.sum();
    }

    /** One caller's choice of calls to read, and the read itself. */
    public static final class Sampler {
        private final SplittableRandom random;
        private long skip;
        private long startBytes = -1;
        private long startNanos;

        private Sampler(long seed) {
            this.random = new SplittableRandom(seed);
        }

        /** Before a call: starts reading it when it is drawn. */
        public void before() {
            if (THREADS == null || --skip > 0) {
                startBytes = -1;
                return;
            }
            startNanos = System.nanoTime();
            startBytes = THREADS.getCurrentThreadAllocatedBytes();
        }

        /** After the call {@link #before} preceded (when it threw, nothing is counted). */
        public void after() {
            if (startBytes < 0) {
                return;
            }
            long bytes = THREADS.getCurrentThreadAllocatedBytes() - startBytes;
            long nanos = System.nanoTime() - startNanos;
            startBytes = -1;
            BYTES.add(bytes);
            READ.add(1);
            skip = draw(stride(nanos));
        }

        /** A gap of mean {@code stride} calls (uniform from 1 to 2 * stride - 1). */
        private long draw(long stride) {
            return stride <= 1 ? 1 : 1 + random.nextLong(2 * stride - 1);
        }
    }

    /** Calls per read for a call of {@code nanos}: 1 from 130 µs up, then more as calls get shorter. */
    static long stride(long nanos) {
        double calls = Math.ceil(READ_COST_NANOS * 1e6 / (MAX_OVERHEAD_PPM * (double) Math.max(1, nanos)));
        return (long) Math.min(MAX_STRIDE, Math.max(1, calls));
    }

    private static com.sun.management.ThreadMXBean threads() {
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean t
                && t.isThreadAllocatedMemorySupported() && t.isThreadAllocatedMemoryEnabled()) {
            return t;
        }
        return null;
    }
}

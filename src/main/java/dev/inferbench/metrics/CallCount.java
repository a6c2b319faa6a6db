package dev.inferbench.metrics;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Calls made inside one benchmark invocation, for benchmarks that make many of their own (an open-loop serving step
 * is one invocation of thousands of requests): the per-call figures ({@link CpuProfiler}) divide by this count when
 * it was set during the iteration, by JMH's count of invocations otherwise. Reset before each iteration.
 */
public final class CallCount {
    private static final AtomicLong COUNT = new AtomicLong();

    private CallCount() {
    }

    public static void add(long calls) {
        COUNT.addAndGet(calls);
    }

    static void reset() {
        COUNT.set(0);
    }

    static long counted() {
        return COUNT.get();
    }
}

package dev.inferbench.metrics;

import java.util.concurrent.atomic.AtomicLong;

/**
 * CPU time the load generator spent in an iteration (an open-loop step's arrival scheduler: it sleeps and spins to
 * each arrival's time), reported by the thread that ran it. {@link CpuProfiler} takes it out of the process's CPU so
 * that CPU per request is the serving side's (callers, engine, JVM), and gives it as a figure of its own: at
 * 10,000 req/s the scheduler's spinning alone is a good part of a core. Reset before each iteration.
 */
public final class GeneratorCpu {
    private static final AtomicLong NANOS = new AtomicLong();

    private GeneratorCpu() {
    }

    public static void add(long cpuNanos) {
        NANOS.addAndGet(cpuNanos);
    }

    static void reset() {
        NANOS.set(0);
    }

    static long counted() {
        return NANOS.get();
    }
}

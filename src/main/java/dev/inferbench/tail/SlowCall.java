package dev.inferbench.tail;

/**
 * One recorded call: its start and end on {@link System#nanoTime}'s clock, the thread's id (JFR's Java thread id) and
 * the reading of its CPU clock at the call's end: the CPU time the thread used since {@code cpuFrom}, the wall time of
 * the reading before ({@code cpuNanos} -1 where the call's end had no reading).
 */
record SlowCall(long start, long end, long cpuFrom, long cpuNanos, long thread) {
    /** A call whose CPU clock was read at its start and at its end. */
    SlowCall(long start, long end, long cpuNanos, long thread) {
        this(start, end, start, cpuNanos, thread);
    }

    long nanos() {
        return end - start;
    }

    boolean cpuKnown() {
        return cpuNanos >= 0;
    }

    /**
     * Wall time the thread spent off its CPU during the call: since the reading before, less the CPU time since, at
     * most the call's own time (the calls in between were not slow); 0 where unknown.
     */
    long offCpuNanos() {
        return cpuKnown() ? Math.min(nanos(), Math.max(0, end - cpuFrom - cpuNanos)) : 0;
    }

    boolean contains(long at) {
        return at >= start && at <= end;
    }
}

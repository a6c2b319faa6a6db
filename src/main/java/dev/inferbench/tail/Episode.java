package dev.inferbench.tail;

/**
 * Something the JVM did over a stretch of time that can slow a call down: a GC pause, a safepoint, a wait of one
 * thread, a compilation; its start and end on {@link System#nanoTime}'s clock ({@code start == end} for an instant
 * such as a deoptimization), the thread it happened to ({@link #ALL_THREADS} when it stopped or touched every
 * thread) and what it was ({@code Pause Young (Normal) (G1 Evacuation Pause)}, {@code ThreadDump}, a method).
 */
record Episode(Cause cause, long start, long end, long thread, String what) {
    static final long ALL_THREADS = -1;

    /** The time this episode and [from, to] share, ns; 0 when apart. */
    long overlap(long from, long to) {
        return Math.max(0, Math.min(end, to) - Math.max(start, from));
    }

    boolean touches(SlowCall call) {
        return (thread == ALL_THREADS || thread == call.thread()) && start <= call.end() && end >= call.start();
    }
}

package dev.inferbench.metrics;

import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * What a benchmark hands its profilers in the fork's JVM. JMH gives a profiler no way to reach a benchmark's state,
 * and one fork runs one cell, so each thing a benchmark measures for a profiler travels through a static holder of
 * one of two kinds: a {@link Slot}, the latest value the benchmark set, or a {@link Tally}, a sum over the current
 * iteration that any thread adds to. The benchmark writes; only the profiler that reports it reads, takes or resets.
 */
public final class Handoff {
    private Handoff() {
    }

    /** The latest value the benchmark set: null before it sets one and after the profiler took it. */
    public static final class Slot<T> {
        private final AtomicReference<T> value = new AtomicReference<>();

        public void set(T v) {
            value.set(v);
        }

        public T get() {
            return value.get();
        }

        /** The value and a fresh start, so that a value is reported for one iteration only. */
        public T take() {
            return value.getAndSet(null);
        }
    }

    /**
     * A sum over the current iteration. Callers add to it on every call from many threads, so it is a
     * {@link LongAdder}: no thread waits for another. Its profiler resets it before the iteration starts.
     */
    public static final class Tally {
        private final LongAdder sum = new LongAdder();

        public void add(long n) {
            sum.add(n);
        }

        void reset() {
            sum.reset();
        }

        long sum() {
            return sum.sum();
        }
    }
}

package dev.inferbench.serve;

import dev.inferbench.BenchException;
import dev.inferbench.metrics.CpuProfiler;
import dev.inferbench.metrics.ServingThreads;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * How one caller gathers the requests of its next call from the step's queue: the first waiting, then those already
 * waiting and those arriving within the batching wait, up to the batch size ({@link OpenLoop.Batching}). With an
 * {@link Admission} the call also reserves what its requests hold: the first request waits until the other callers'
 * calls leave room for it, and a request that does not fit beside those gathered is kept for this caller's next call,
 * ahead of the queue, so requests are still served in the order they arrived.
 */
final class Gatherer {
    /** The queue's end marker: one per caller. */
    static final long END = -1;

    /** How long before a request's time an idle caller stops sleeping and spins, awake for it. */
    static final long AWAKE_NS = 1_000_000;
    /** How long a caller that is not the one awake sleeps past the next request's time before it looks again. */
    private static final long RECHECK_NS = 50_000;

    private final LinkedBlockingQueue<long[]> queue;
    private final OpenLoop.Batching batching;
    private final OpenLoop.Source source;
    private final Admission admission;
    private final List<long[]> held = new ArrayList<>();
    private long[] carried;
    private boolean last;
    private long reserved;

    /**
     * @param source the step's arrivals: a caller that finds the queue empty is awake for the next one it names
     */
    Gatherer(LinkedBlockingQueue<long[]> queue, OpenLoop.Batching batching, OpenLoop.Source source) {
        this.queue = queue;
        this.batching = batching;
        this.source = source;
        this.admission = batching.admission();
    }

    /**
     * The next call's requests, by their index in the step, their room reserved; null when the caller is to stop (its
     * end marker taken, or the step gave up).
     */
    int[] next(AtomicBoolean giveUp) throws InterruptedException, BenchException {
        if (last && carried == null) {
            return null;
        }
        held.clear();
        long[] first = carried != null ? carried : first();
        carried = null;
        if (first[0] == END || giveUp.get()) {
            return null;
        }
        held.add(first);
        if (admission != null) {
            long want = admission.need(ids());
            admission.acquire(want); // until the other calls leave room
            reserved = want;
        }
        long until = System.nanoTime() + batching.waitNs();
        while (!last && held.size() < batching.maxRequests()) {
            long left = until - System.nanoTime();
            long[] more = left > 0 ? queue.poll(left, TimeUnit.NANOSECONDS) : queue.poll();
            if (more == null) {
                break;
            }
            if (more[0] == END) {
                last = true; // serve what was taken, then stop
                break;
            }
            held.add(more);
            if (admission != null) {
                long grown = admission.need(ids());
                if (!admission.tryGrow(reserved, grown)) {
                    held.remove(held.size() - 1);
                    carried = more; // over the budget beside these: the first of the next call
                    break;
                }
                reserved = grown;
            }
        }
        if (giveUp.get()) {
            release();
            return null;
        }
        return ids();
    }

    /**
     * The first request of the next call. One already waiting is taken at once. Otherwise the caller sleeps until
     * {@link #AWAKE_NS} before the next request's time and then, if no other caller is awake for it, spins on the
     * queue and issues the request itself when its time comes (unless the scheduler did first): a request that finds
     * a caller idle starts on time instead of waiting for a parked thread to be woken, which on a busy core takes
     * from tens of µs to milliseconds. The spin is the load generator's work, done on an idle caller's thread: its
     * CPU goes to the generator's figure, not the serving side's ({@link CpuProfiler#GENERATOR_CPU}, {@link ServingThreads}).
     * Where no time is known (closed-loop users, or the step's last request issued) the caller blocks on the queue.
     */
    private long[] first() throws InterruptedException {
        long[] r = queue.poll();
        while (r == null) {
            long due = source.nextDue();
            if (due == OpenLoop.Source.NONE) {
                return queue.take();
            }
            if (due == OpenLoop.Source.NOT_YET) {
                r = queue.poll(RECHECK_NS, TimeUnit.NANOSECONDS);
                continue;
            }
            long left = due - System.nanoTime();
            if (left > AWAKE_NS) {
                r = queue.poll(left - AWAKE_NS, TimeUnit.NANOSECONDS);
            } else if (source.watch()) {
                try {
                    r = awake(due);
                } finally {
                    source.unwatch();
                }
            } else {
                r = queue.poll(Math.max(0, left) + RECHECK_NS, TimeUnit.NANOSECONDS); // another caller is awake
            }
        }
        return r;
    }

    /** Spins until a request is waiting, issuing the one due at {@code due} when its time comes; null if another
     * caller took it. */
    private long[] awake(long due) {
        long cpu = ServingThreads.threadCpu();
        try {
            long[] r;
            while ((r = queue.poll()) == null) {
                if (source.nextDue() != due) {
                    return queue.poll(); // issued by the scheduler: in the queue, unless another caller has it
                }
                if (source.issueDue(due)) {
                    return queue.poll();
                }
                Thread.onSpinWait();
            }
            return r;
        } finally {
            long spent = ServingThreads.threadCpu() - cpu;
            CpuProfiler.GENERATOR_CPU.add(spent);
            ServingThreads.generating(spent);
        }
    }

    /** Gives back the room the last call held. */
    void release() {
        if (admission != null && reserved > 0) {
            admission.release(reserved);
        }
        reserved = 0;
    }

    private int[] ids() {
        return held.stream().mapToInt(r -> (int) r[0]).toArray();
    }
}

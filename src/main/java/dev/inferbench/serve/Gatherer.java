package dev.inferbench.serve;

import dev.inferbench.BenchException;

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

    private final LinkedBlockingQueue<long[]> queue;
    private final OpenLoop.Batching batching;
    private final Admission admission;
    private final List<long[]> held = new ArrayList<>();
    private long[] carried;
    private boolean last;
    private long reserved;

    Gatherer(LinkedBlockingQueue<long[]> queue, OpenLoop.Batching batching) {
        this.queue = queue;
        this.batching = batching;
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
        long[] first = carried != null ? carried : queue.take();
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

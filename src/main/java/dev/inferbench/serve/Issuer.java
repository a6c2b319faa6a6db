package dev.inferbench.serve;

import java.util.concurrent.LinkedBlockingQueue;

/**
 * Puts a step's requests in its queue as their source issues them, and keeps what the step's figures need of each:
 * its intended start, how late it was issued (measured requests), and how many waited when it arrived. The open loop's
 * scheduler thread issues through it; closed-loop users issue from the thread whose request just ended, so that no
 * hand-off to another thread (whose wake-up a busy core can hold back by milliseconds) stands between a user's send and
 * its request's place in the queue.
 */
final class Issuer {
    private final LinkedBlockingQueue<long[]> queue;
    private final long start;
    private final int warmup;
    private final long[] arrivalsNs;
    private final long[] delays;
    private long queued;
    private int queueMax;
    private int issued;

    /**
     * @param start      the step's start, {@code System.nanoTime()}
     * @param arrivalsNs receives each request's intended start, ns after {@code start}
     */
    Issuer(LinkedBlockingQueue<long[]> queue, long start, int warmup, long[] arrivalsNs) {
        this.queue = queue;
        this.start = start;
        this.warmup = warmup;
        this.arrivalsNs = arrivalsNs;
        this.delays = new long[arrivalsNs.length - warmup];
    }

    long start() {
        return start;
    }

    /** Request {@code i}, intended to start at {@code due} ({@code System.nanoTime()}), joins the queue now. */
    synchronized void issue(int i, long due) {
        arrivalsNs[i] = due - start;
        long issuedAt = System.nanoTime();
        int waiting = queue.size();
        queue.add(new long[]{i, due});
        issued = Math.max(issued, i + 1);
        if (i >= warmup) {
            delays[i - warmup] = Math.max(0, issuedAt - due);
            queued += waiting;
            queueMax = Math.max(queueMax, waiting);
        }
    }

    /** Requests issued so far (the highest index issued, plus one). */
    synchronized int issued() {
        return issued;
    }

    synchronized long[] delays() {
        return delays;
    }

    synchronized long queued() {
        return queued;
    }

    synchronized int queueMax() {
        return queueMax;
    }
}

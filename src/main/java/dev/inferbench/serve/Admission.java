package dev.inferbench.serve;

import dev.inferbench.BenchException;

/**
 * A limit on what the calls under way hold at once, shared by every caller of a step: for generation, a KV-cache
 * budget, which caps how many sequences are in flight. A caller reserves what its gathered requests need before its
 * call and gives it back when the call ends; the first request of a call waits until the others' calls leave room for
 * it, and a request that would take a call over the limit is left for the caller's next call. Either wait counts in
 * the request's latency, which runs from its intended start. One admission serves one step at a time.
 */
public final class Admission {
    /** What one call of these requests (their indices in the step) holds, in the unit of the limit. */
    @FunctionalInterface
    public interface Need {
        long of(int[] requests);
    }

    private final long limit;
    private final Need need;
    private long held; // guarded by this

    /**
     * @param limit the most every caller's calls may hold together
     * @param need  what a call of given requests holds
     */
    public Admission(long limit, Need need) {
        if (limit < 1) {
            throw new IllegalArgumentException("an admission limit must be at least 1, got " + limit);
        }
        this.limit = limit;
        this.need = need;
    }

    public long limit() {
        return limit;
    }

    public long need(int[] requests) {
        return need.of(requests);
    }

    /** How many of {@code requests}, taken in order, one call may hold when no other call holds anything. */
    public int fitting(int[] requests) {
        int k = requests.length;
        while (k > 1 && need(java.util.Arrays.copyOf(requests, k)) > limit) {
            k--;
        }
        return k;
    }

    /**
     * Waits until {@code amount} fits beside what the other calls hold, and holds it.
     *
     * @throws BenchException when {@code amount} alone is over the limit: it would never fit
     */
    synchronized void acquire(long amount) throws InterruptedException, BenchException {
        if (amount > limit) {
            throw new BenchException("a request needs " + amount + " of a limit of " + limit + ": it can never be"
                    + " admitted; expected a budget that holds the largest request");
        }
        while (held + amount > limit) {
            wait();
        }
        held += amount;
    }

    /** Grows a call's hold from {@code from} to {@code to} when that fits now; whether it did. */
    synchronized boolean tryGrow(long from, long to) {
        if (held - from + to > limit) {
            return false;
        }
        held += to - from;
        return true;
    }

    synchronized void release(long amount) {
        held -= amount;
        notifyAll();
    }
}

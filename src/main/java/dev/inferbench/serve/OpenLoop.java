package dev.inferbench.serve;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * One step of open-loop load: requests arrive on a schedule fixed in advance (not when the previous one finished), wait
 * in one queue, and are served by the callers, each on its own thread with its own input, as a service's request
 * threads would. The scheduler is the calling thread; it sleeps to within {@value #SPIN_NS} ns of each arrival and
 * spins the rest, so arrivals land within microseconds on an idle machine. A step ends when every request is served,
 * or when the drain limit after the last arrival has passed: what is left is dropped.
 */
public final class OpenLoop {
    /** An arrival issued later than this after its time counts as late: the machine could not keep the schedule. */
    public static final long LATE_NS = 1_000_000;
    private static final long SPIN_NS = 100_000;
    private static final long END = -1;

    /** One caller's call: runs one request on that caller's own input. */
    @FunctionalInterface
    public interface Call {
        void run() throws Exception;
    }

    /** One caller's call for {@code requests} gathered requests at once: one engine call at that batch. */
    @FunctionalInterface
    public interface BatchCall {
        void run(int requests) throws Exception;
    }

    /**
     * Dynamic batching, as a server does it: a caller that takes a request also takes those already waiting, and
     * those arriving within {@code waitNs} of it, up to {@code maxRequests}, and serves them in one call.
     *
     * @param maxRequests the most requests one call serves (1: no batching)
     * @param waitNs      how long a caller holds its first request for more to arrive (0: only those already waiting)
     */
    public record Batching(int maxRequests, long waitNs) {
        /** One request per call. */
        public static final Batching NONE = new Batching(1, 0);

        public Batching {
            if (maxRequests < 1 || waitNs < 0) {
                throw new IllegalArgumentException("batching needs maxRequests >= 1 and waitNs >= 0, got "
                        + maxRequests + ", " + waitNs);
            }
        }
    }

    private OpenLoop() {
    }

    /**
     * Runs {@code arrivalsNs.length} requests at the given times over the callers.
     *
     * @param arrivalsNs intended starts, ns after the step's start, ascending ({@link Arrivals#schedule})
     * @param drainNs    how long after the last arrival unserved requests are still waited for
     * @throws Exception the first call that failed (the step stops at once)
     */
    public static StepResult run(List<Call> callers, long[] arrivalsNs, double offeredPerSecond, long drainNs)
            throws Exception {
        List<BatchCall> one = callers.stream().<BatchCall>map(c -> requests -> c.run()).toList();
        return run(one, Batching.NONE, arrivalsNs, offeredPerSecond, drainNs);
    }

    /**
     * As {@link #run(List, long[], double, long)}, with the callers gathering requests into calls as {@code batching}
     * says; each request's latency runs from its own intended start to the end of the call that served it.
     */
    public static StepResult run(List<BatchCall> callers, Batching batching, long[] arrivalsNs, double offeredPerSecond,
                                 long drainNs) throws Exception {
        int n = arrivalsNs.length;
        long[] latencies = new long[n];
        Arrays.fill(latencies, -1);
        LinkedBlockingQueue<long[]> queue = new LinkedBlockingQueue<>(); // {index, intended start}
        AtomicBoolean giveUp = new AtomicBoolean();
        AtomicLong lastEnd = new AtomicLong();
        AtomicLong calls = new AtomicLong();
        CallerThreads threads = CallerThreads.start(callers, "inferbench-caller", (caller, call) -> {
            List<long[]> taken = new ArrayList<>(batching.maxRequests());
            boolean last = false;
            while (!last) {
                taken.clear();
                long[] req = queue.take();
                if (req[0] == END || giveUp.get()) {
                    return;
                }
                taken.add(req);
                long until = System.nanoTime() + batching.waitNs();
                while (taken.size() < batching.maxRequests()) {
                    long left = until - System.nanoTime();
                    long[] more = left > 0 ? queue.poll(left, TimeUnit.NANOSECONDS) : queue.poll();
                    if (more == null) {
                        break;
                    }
                    if (more[0] == END) {
                        last = true; // serve what was taken, then stop
                        break;
                    }
                    taken.add(more);
                }
                if (giveUp.get()) {
                    return;
                }
                call.run(taken.size());
                long end = System.nanoTime();
                calls.incrementAndGet();
                for (long[] r : taken) {
                    latencies[(int) r[0]] = end - r[1];
                }
                lastEnd.accumulateAndGet(end, Math::max);
            }
        });
        int late = 0;
        long queued = 0;
        int queueMax = 0;
        long start = System.nanoTime() + 1_000_000; // a millisecond to let the callers reach their queue
        for (int i = 0; i < n && !threads.failed(); i++) {
            long due = start + arrivalsNs[i];
            waitUntil(due);
            if (System.nanoTime() - due > LATE_NS) {
                late++;
            }
            int waiting = queue.size();
            queued += waiting;
            queueMax = Math.max(queueMax, waiting);
            queue.add(new long[]{i, due});
        }
        for (int c = 0; c < callers.size(); c++) {
            queue.add(new long[]{END, 0});
        }
        if (threads.failed()) {
            giveUp.set(true); // no drain: the step fails with the first call that did
        }
        threads.joinUntil(start + arrivalsNs[n - 1] + drainNs);
        giveUp.set(true);
        long stopped = System.nanoTime();
        queue.clear(); // the requests left are dropped; the callers still waiting need their end marker again
        for (int c = 0; c < callers.size(); c++) {
            queue.add(new long[]{END, 0});
        }
        threads.join();
        int dropped = 0;
        for (int i = 0; i < n; i++) {
            if (latencies[i] < 0) {
                dropped++;
                latencies[i] = stopped - (start + arrivalsNs[i]); // what it had waited so far: a lower bound
            }
        }
        Arrays.sort(latencies);
        long servingEnd = dropped > 0 ? stopped : lastEnd.get();
        return new StepResult(offeredPerSecond, latencies, dropped, late, n == 0 ? 0 : queued / (double) n, queueMax,
                servingEnd - start, calls.get());
    }

    private static void waitUntil(long due) {
        long left;
        while ((left = due - System.nanoTime()) > SPIN_NS) {
            LockSupport.parkNanos(left - SPIN_NS);
        }
        while (System.nanoTime() < due) {
            Thread.onSpinWait();
        }
    }
}

package dev.inferbench.serve;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
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
        int n = arrivalsNs.length;
        long[] latencies = new long[n];
        Arrays.fill(latencies, -1);
        LinkedBlockingQueue<long[]> queue = new LinkedBlockingQueue<>(); // {index, intended start}
        AtomicBoolean giveUp = new AtomicBoolean();
        AtomicLong lastEnd = new AtomicLong();
        CallerThreads threads = CallerThreads.start(callers, "inferbench-caller", (caller, call) -> {
            while (true) {
                long[] req = queue.take();
                if (req[0] == END || giveUp.get()) {
                    return;
                }
                call.run();
                long end = System.nanoTime();
                latencies[(int) req[0]] = end - req[1];
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
                servingEnd - start);
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

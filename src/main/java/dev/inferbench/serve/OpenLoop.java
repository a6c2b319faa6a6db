package dev.inferbench.serve;

import dev.inferbench.plant.HeldArrivals;
import dev.inferbench.metrics.CpuProfiler;
import dev.inferbench.metrics.ServingThreads;
import dev.inferbench.tail.SlowCalls;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * One step of open-loop load: requests arrive on a schedule fixed in advance (not when the previous one finished), wait
 * in one queue, and are served by the callers, each on its own thread with its own input, as a service's request
 * threads would. The scheduler is the calling thread; it sleeps to within {@value #SPIN_NS} ns of each arrival and
 * spins the rest, so arrivals land within microseconds on an idle machine; how late each one was issued is kept for the
 * step's validity ({@link Validity}), and the scheduler's own CPU time goes to {@link CpuProfiler#GENERATOR_CPU}, apart from the
 * serving side's. A step ends when every request is served, or when the drain limit after the last arrival has
 * passed: what is left is dropped. The same loop runs closed-loop users ({@link #closed}): only the source of the
 * arrivals differs, each request issued when its user's last one ended.
 */
public final class OpenLoop {
    static final long SPIN_NS = 100_000;
    private static final long END = Gatherer.END;

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
     * A caller's call for gathered requests, named by their index in the schedule (in arrival order), served together;
     * it returns each request's token times ({@code System.nanoTime()} as each of its tokens was known: a streamed
     * response, whose end is its last token), or null when each request ends with the call. A call whose requests end
     * at different moments (a static batch whose shorter outputs are done first) tells {@code done} as each ends, so
     * that a closed-loop user sends its next request then, not when the whole call returns.
     */
    @FunctionalInterface
    public interface Serve {
        long[][] run(int[] requests, Done done) throws Exception;
    }

    /** Request {@code k} of a call (its index in the call's requests) ended at {@code nanos}. */
    @FunctionalInterface
    public interface Done {
        void at(int k, long nanos);
    }

    /** When each request of a step is issued: a schedule fixed in advance, or closed-loop users ({@link Users}). */
    interface Source {
        /**
         * Issues the step's requests through {@code issuer} (on the scheduler thread, or, for closed-loop users, from
         * {@link #ended}), and returns when all are issued or {@code stop} says to stop.
         */
        void issue(Issuer issuer, BooleanSupplier stop) throws InterruptedException;

        /** Request {@code request} of the step ended at {@code nanos}. */
        void ended(int request, long nanos);

        /** Which user sent each measured request, in arrival order; empty when each request is its own user. */
        int[] users(int warmup);

        /** Whether the arrivals kept a rate of their own, against which the served rate is held. */
        boolean scheduled();

        /** {@link #nextDue}: no request is due at a known time (a closed loop), or none is left to issue. */
        long NONE = Long.MAX_VALUE;
        /** {@link #nextDue}: the step has not started; the first request's time is not known yet. */
        long NOT_YET = Long.MIN_VALUE;

        /**
         * When the next request not yet issued is to be issued ({@code System.nanoTime()}: its time, or later where a
         * calibration holds it, {@link HeldArrivals}), for an idle caller to be awake for it; {@link #NONE} or
         * {@link #NOT_YET} where there is no such time.
         */
        default long nextDue() {
            return NONE;
        }

        /**
         * Issues the next request, from an idle caller awake for it, if it is still the one due at {@code due} and
         * that time has come; whether this call issued it.
         */
        default boolean issueDue(long due) {
            return false;
        }

        /** An idle caller is to be awake for the next request: whether it is the one (one caller at a time). */
        default boolean watch() {
            return false;
        }

        /** The caller awake for the next request no longer is. */
        default void unwatch() {
        }
    }

    /**
     * Dynamic batching, as a server does it: a caller that takes a request also takes those already waiting, and
     * those arriving within {@code waitNs} of it, up to {@code maxRequests}, and serves them in one call.
     *
     * @param maxRequests the most requests one call serves (1: no batching)
     * @param waitNs      how long a caller holds its first request for more to arrive (0: only those already waiting)
     * @param admission   what the calls under way may hold together (a KV-cache budget), or null: no limit but
     *                    {@code maxRequests}
     */
    public record Batching(int maxRequests, long waitNs, Admission admission) {
        /** One request per call. */
        public static final Batching NONE = new Batching(1, 0);

        public Batching {
            if (maxRequests < 1 || waitNs < 0) {
                throw new IllegalArgumentException("batching needs maxRequests >= 1 and waitNs >= 0, got "
                        + maxRequests + ", " + waitNs);
            }
        }

        public Batching(int maxRequests, long waitNs) {
            this(maxRequests, waitNs, null);
        }
    }

    private OpenLoop() {
    }

    /**
     * Runs {@code arrivalsNs.length} requests at the given times over the callers; none is a warm-up request.
     *
     * @param arrivalsNs intended starts, ns after the step's start, ascending ({@link Arrivals#schedule})
     * @param drainNs    how long after the last arrival unserved requests are still waited for
     * @throws Exception the first call that failed (the step stops at once)
     */
    public static StepResult run(List<Call> callers, long[] arrivalsNs, double offeredPerSecond, long drainNs)
            throws Exception {
        List<BatchCall> one = callers.stream().<BatchCall>map(c -> requests -> c.run()).toList();
        return run(one, Batching.NONE, arrivalsNs, 0, offeredPerSecond, drainNs);
    }

    /**
     * As {@link #run(List, long[], double, long)}, with the callers gathering requests into calls as {@code batching}
     * says; each request's latency runs from its own intended start to the end of the call that served it. The first
     * {@code warmup} arrivals bring the callers and the queue to a steady state and are left out of every figure
     * (fresh caller threads, an empty queue and cold caches would otherwise shorten the step's first latencies).
     */
    public static StepResult run(List<BatchCall> callers, Batching batching, long[] arrivalsNs, int warmup,
                                 double offeredPerSecond, long drainNs) throws Exception {
        List<Serve> serves = callers.stream().<Serve>map(c -> (requests, done) -> {
            c.run(requests.length);
            return null;
        }).toList();
        return serve(serves, batching, arrivalsNs, warmup, offeredPerSecond, drainNs);
    }

    /**
     * As {@link #run(List, Batching, long[], int, double, long)}, each call told which requests it serves; when it
     * returns their token times (generation), each request ends at its own last token and the step keeps its token
     * times from the request's intended start ({@link StepResult#tokens}).
     */
    public static StepResult serve(List<Serve> callers, Batching batching, long[] arrivalsNs, int warmup,
                                   double offeredPerSecond, long drainNs) throws Exception {
        return serve(callers, batching, arrivalsNs, warmup, offeredPerSecond, drainNs, HeldArrivals.ofProperty());
    }

    /** As {@link #serve(List, Batching, long[], int, double, long)}, the requests {@code held} says issued late. */
    static StepResult serve(List<Serve> callers, Batching batching, long[] arrivalsNs, int warmup,
                            double offeredPerSecond, long drainNs, HeldArrivals held) throws Exception {
        Source schedule = new Schedule(arrivalsNs, held);
        return step(callers, batching, schedule, arrivalsNs.length, warmup, offeredPerSecond, drainNs);
    }

    /**
     * Closed loop, through the same callers, queue and figures: {@code users} users each send their next request when
     * their last one ended ({@link Users}), until {@code requests} were sent. Each request's latency and token times
     * run from when its user sent it; the first {@code warmup} are left out of every figure, as in the open loop. The
     * step offers no rate: its offered and scheduled rates are NaN, so the served rate is held against none
     * ({@link Validity}).
     */
    public static StepResult closed(List<Serve> callers, Batching batching, int users, int requests, int warmup,
                                    long drainNs) throws Exception {
        return step(callers, batching, new Users(users, requests), requests, warmup, Double.NaN, drainNs);
    }

    /** One step of {@code n} requests, issued as {@code source} says. */
    static StepResult step(List<Serve> callers, Batching batching, Source source, int n, int warmup,
                           double offeredPerSecond, long drainNs) throws Exception {
        if (warmup < 0 || warmup >= n) {
            throw new IllegalArgumentException("warm-up requests " + warmup + " of " + n + ": expected fewer than all");
        }
        long[] arrivalsNs = new long[n]; // each request's intended start, ns after the step's start, once issued
        long[] ends = new long[n];
        long[] taken = new long[n]; // when a caller took each request from the queue
        long[][] tokenNanos = new long[n][];
        Arrays.fill(ends, -1);
        LinkedBlockingQueue<long[]> queue = new LinkedBlockingQueue<>(); // {index, intended start}
        AtomicBoolean giveUp = new AtomicBoolean();
        AtomicLong calls = new AtomicLong();
        CallerThreads threads = CallerThreads.start(callers, "inferbench-caller", (caller, call) -> {
            Gatherer gatherer = new Gatherer(queue, batching, source);
            SlowCalls tail = SlowCalls.forCaller(caller); // --tail: this caller's slow service calls
            int[] ids;
            while ((ids = gatherer.next(giveUp)) != null) {
                try {
                    serveOne(call, ids, warmup, source, calls, taken, tokenNanos, ends, tail);
                } finally {
                    gatherer.release();
                }
            }
        });
        long cpuBefore = ServingThreads.threadCpu();
        long start = System.nanoTime() + 1_000_000; // a millisecond to let the callers reach their queue
        Issuer issuer = new Issuer(queue, start, warmup, arrivalsNs);
        try {
            source.issue(issuer, threads::failed);
        } catch (Exception | Error e) {
            // the callers wait on the queue for requests that will not come: each is given its end marker
            giveUp.set(true);
            endEach(queue, callers.size());
            try {
                threads.join();
            } catch (Exception callerFailure) {
                e.addSuppressed(callerFailure);
            }
            throw e;
        } finally {
            CpuProfiler.GENERATOR_CPU.add(ServingThreads.threadCpu() - cpuBefore);
        }
        for (int c = 0; c < callers.size(); c++) {
            queue.add(new long[]{END, 0});
        }
        if (threads.failed()) {
            giveUp.set(true); // no drain: the step fails with the first call that did
        }
        threads.joinUntil(start + arrivalsNs[Math.max(0, issuer.issued() - 1)] + drainNs);
        giveUp.set(true);
        long stopped = System.nanoTime();
        endEach(queue, callers.size()); // the requests left are dropped
        threads.join();
        StepResult r = result(arrivalsNs, warmup, offeredPerSecond, start, stopped, ends, taken, tokenNanos,
                issuer.delays(), issuer.queued(), issuer.queueMax(), calls.get());
        return source.scheduled() ? r : r.sentBy(source.users(warmup));
    }

    /** Drops the requests still waiting and gives each caller still waiting its end marker again. */
    private static void endEach(LinkedBlockingQueue<long[]> queue, int callers) {
        queue.clear();
        for (int c = 0; c < callers; c++) {
            queue.add(new long[]{END, 0});
        }
    }

    /** One call of the gathered requests {@code ids}; what it served is kept for the step's figures. */
    private static void serveOne(Serve call, int[] ids, int warmup, Source source, AtomicLong calls, long[] taken,
                                 long[][] tokenNanos, long[] ends, SlowCalls tail) throws Exception {
        boolean[] told = new boolean[ids.length];
        ServingThreads.callStarts(); // outside the timed call; the rest of a caller's CPU is its wait
        tail.resumes(); // after a wait for requests
        long begin = System.nanoTime();
        long[][] tokens = call.run(ids, (k, nanos) -> {
            told[k] = true;
            source.ended(ids[k], nanos);
        });
        long end = System.nanoTime();
        ServingThreads.callEnds();
        if (ids[ids.length - 1] >= warmup) {
            calls.incrementAndGet();
            tail.ended(begin, end); // the service call alone: a request's wait in the queue is not the call's
        }
        for (int k = 0; k < ids.length; k++) {
            taken[ids[k]] = begin;
            // written before the thread ends; read after join
            tokenNanos[ids[k]] = tokens == null ? null : tokens[k];
            ends[ids[k]] = tokens == null ? end : tokens[k][tokens[k].length - 1];
            if (!told[k]) {
                source.ended(ids[k], ends[ids[k]]);
            }
        }
    }


    private static StepResult result(long[] arrivalsNs, int warmup, double offeredPerSecond, long start, long stopped,
                                     long[] ends, long[] taken, long[][] tokenNanos, long[] delays, long queued,
                                     int queueMax, long calls) {
        int n = arrivalsNs.length;
        int m = n - warmup;
        long[] latencies = new long[m];
        long[] waits = new long[m];
        int dropped = 0;
        long warmupServed = 0;
        long lastEnd = start + arrivalsNs[warmup];
        boolean streamed = Arrays.stream(tokenNanos).anyMatch(t -> t != null);
        List<TokenTimes> tokens = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long due = start + arrivalsNs[i];
            if (i < warmup) {
                warmupServed += ends[i] < 0 ? 0 : 1;
                continue;
            }
            if (ends[i] < 0) {
                dropped++;
                latencies[i - warmup] = stopped - due; // what it had waited so far: a lower bound
                waits[i - warmup] = stopped - due;
            } else {
                latencies[i - warmup] = ends[i] - due;
                waits[i - warmup] = Math.max(0, taken[i] - due);
                lastEnd = Math.max(lastEnd, ends[i]);
            }
            if (streamed) {
                tokens.add(ends[i] < 0 ? null : TokenTimes.since(due, tokenNanos[i]));
            }
        }
        Arrays.sort(latencies);
        Arrays.sort(waits);
        Arrays.sort(delays);
        long servingEnd = dropped > 0 ? stopped : lastEnd;
        // m arrivals offer m gaps' worth of time: the span of the measured ones plus one mean gap of the whole schedule
        double meanGap = n > 1 ? (arrivalsNs[n - 1] - arrivalsNs[0]) / (double) (n - 1) : 0;
        double span = arrivalsNs[n - 1] - arrivalsNs[warmup] + meanGap;
        // a request that arrived at the window's end still needs its own call: one mean call time is not a shortfall
        long computeSum = 0;
        int completed = 0;
        for (int i = warmup; i < n; i++) {
            if (ends[i] >= 0) {
                computeSum += Math.max(0, ends[i] - taken[i]);
                completed++;
            }
        }
        long windowEnd = start + arrivalsNs[n - 1] + Math.round(meanGap) + (completed == 0 ? 0 : computeSum / completed);
        int inWindow = 0;
        for (int i = warmup; i < n; i++) {
            inWindow += ends[i] >= 0 && ends[i] <= windowEnd ? 1 : 0;
        }
        double scheduled = span > 0 ? m / (span / 1e9) : offeredPerSecond;
        return new StepResult(offeredPerSecond, scheduled, latencies, waits, delays, dropped,
                m == 0 ? 0 : queued / (double) m, queueMax, servingEnd - (start + arrivalsNs[warmup]), calls,
                warmupServed, tokens, inWindow);
    }

    static void waitUntil(long due) {
        long left;
        while ((left = due - System.nanoTime()) > SPIN_NS) {
            LockSupport.parkNanos(left - SPIN_NS);
        }
        while (System.nanoTime() < due) {
            Thread.onSpinWait();
        }
    }
}

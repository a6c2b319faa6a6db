package dev.inferbench.serve;

import dev.inferbench.plant.HeldArrivals;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The open loop's arrivals: each request at its time in a schedule fixed before the step ({@link Arrivals#schedule}),
 * whenever the others end. Whoever is awake at a request's time issues it: an idle caller awake for it
 * ({@link Gatherer}), which then serves it at once, or else the scheduler, which sleeps to near each time and spins
 * the rest ({@link OpenLoop#waitUntil}). While a caller is awake for the next request the scheduler leaves it the
 * core: it sleeps past the request's time by {@value #BACKSTOP_NS} ns and issues the request only if the caller has
 * not (a caller's spin and the scheduler's would otherwise share a core on a busy machine, each delaying the other).
 */
final class Schedule implements OpenLoop.Source {
    /** How long past a request's time the scheduler sleeps while a caller is awake for it. */
    static final long BACKSTOP_NS = 200_000;

    private final long[] arrivalsNs;
    private final HeldArrivals held;
    private final AtomicBoolean watched = new AtomicBoolean();
    private volatile Issuer issuer;
    /** The next request to issue; every request is issued once, by whoever saw its time come first. */
    private volatile int next; // written under this

    /** @param arrivalsNs intended starts, ns after the step's start, ascending */
    Schedule(long[] arrivalsNs) {
        this(arrivalsNs, HeldArrivals.NONE);
    }

    /** @param held requests issued late on purpose (a calibration's planted lateness), their latency still from their time */
    Schedule(long[] arrivalsNs, HeldArrivals held) {
        this.arrivalsNs = arrivalsNs;
        this.held = held;
    }

    /** @throws InterruptedException the scheduler was interrupted: the step ends, its requests left unissued */
    @Override
    public void issue(Issuer issuer, BooleanSupplier stop) throws InterruptedException {
        begin(issuer);
        try {
            int i;
            while ((i = next) < arrivalsNs.length && !stop.getAsBoolean()) {
                waitFor(issueAt(issuer, i));
                issueIfNext(i);
            }
        } finally {
            synchronized (this) {
                next = arrivalsNs.length; // none left for a caller to issue: the end markers come after the last
            }
        }
    }

    /** The step has started: its requests' times are known from now on, to the callers too. */
    void begin(Issuer issuer) {
        this.issuer = issuer;
    }

    /**
     * Sleeps to near {@code due} and spins the rest, unless a caller is awake for it. An interrupt ends the wait: a
     * park returns at once while the flag is set, so a wait that went on would spin until the request's time.
     */
    private void waitFor(long due) throws InterruptedException {
        endIfInterrupted();
        long left;
        while ((left = due - System.nanoTime()) > OpenLoop.SPIN_NS) {
            LockSupport.parkNanos(left - OpenLoop.SPIN_NS);
            endIfInterrupted();
        }
        while ((left = due - System.nanoTime()) > 0) {
            endIfInterrupted();
            if (watched.get()) {
                LockSupport.parkNanos(left + BACKSTOP_NS);
                return;
            }
            Thread.onSpinWait();
        }
    }

    private static void endIfInterrupted() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException("the open loop's scheduler was interrupted");
        }
    }

    /** When request {@code i} is to be issued: its time, or later where it is held. */
    private long issueAt(Issuer is, int i) {
        return is.start() + arrivalsNs[i] + held.of(i);
    }

    private synchronized boolean issueIfNext(int i) {
        if (next != i) {
            return false;
        }
        issuer.issue(i, issuer.start() + arrivalsNs[i]);
        next = i + 1;
        return true;
    }

    @Override
    public long nextDue() {
        Issuer is = issuer;
        int i = next;
        if (i >= arrivalsNs.length) {
            return OpenLoop.Source.NONE;
        }
        return is == null ? OpenLoop.Source.NOT_YET : issueAt(is, i);
    }

    @Override
    public boolean issueDue(long due) {
        Issuer is = issuer;
        if (is == null || System.nanoTime() < due) {
            return false;
        }
        synchronized (this) {
            int i = next;
            return i < arrivalsNs.length && issueAt(is, i) == due && issueIfNext(i);
        }
    }

    @Override
    public boolean watch() {
        return watched.compareAndSet(false, true);
    }

    @Override
    public void unwatch() {
        watched.set(false);
    }

    @Override
    public void ended(int request, long nanos) {
        // the schedule does not wait for responses
    }

    @Override
    public int[] users(int warmup) {
        return new int[0];
    }

    @Override
    public boolean scheduled() {
        return true;
    }
}

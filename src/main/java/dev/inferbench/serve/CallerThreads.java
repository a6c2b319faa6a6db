package dev.inferbench.serve;

import dev.inferbench.metrics.ServingThreads;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A serving step's callers, each on its own daemon thread running one loop over its own call: the open loop's queue
 * servers, the calls after idle, the warmup's back-to-back calls. The first call that fails is kept, {@link #failed}
 * interrupts the other loops (they end at their next wait, or their next check of the interrupt flag) and
 * {@link #join} rethrows it. An interrupted loop just ends. Each thread counts as a caller for the CPU figures while
 * its loop runs ({@link ServingThreads}).
 */
public final class CallerThreads {
    /** One caller's loop: {@code caller} is its index, {@code call} its own call. */
    @FunctionalInterface
    public interface Loop<C> {
        void run(int caller, C call) throws Exception;
    }

    private final List<Thread> threads = new ArrayList<>();
    private final AtomicReference<Exception> failure = new AtomicReference<>();

    private CallerThreads() {
    }

    public static <C> CallerThreads start(List<C> callers, String name, Loop<C> loop) {
        CallerThreads t = new CallerThreads();
        for (int c = 0; c < callers.size(); c++) {
            int index = c;
            C call = callers.get(c);
            Thread thread = new Thread(() -> {
                ServingThreads.join(); // its CPU is the serving side's, apart from the generator's
                try {
                    loop.run(index, call);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (Exception e) {
                    if (t.failure.compareAndSet(null, e)) {
                        t.threads.forEach(other -> other.interrupt()); // the others stop at their next wait
                    }
                } finally {
                    ServingThreads.leave();
                }
            }, name + "-" + c);
            thread.setDaemon(true);
            t.threads.add(thread);
            thread.start();
        }
        return t;
    }

    /** Whether a caller's call has failed. */
    public boolean failed() {
        return failure.get() != null;
    }

    /** Waits for the loops until {@code deadline} (System.nanoTime()) at the latest. */
    public void joinUntil(long deadline) throws InterruptedException {
        for (Thread t : threads) {
            long left = deadline - System.nanoTime();
            if (left > 0) {
                t.join(TimeUnit.NANOSECONDS.toMillis(left) + 1);
            }
        }
    }

    /** Waits for every loop to end (a call under way finishes: engines cannot be stopped mid-call), then rethrows
     * the first failure. */
    public void join() throws Exception {
        for (Thread t : threads) {
            t.join();
        }
        if (failure.get() != null) {
            throw failure.get();
        }
    }
}

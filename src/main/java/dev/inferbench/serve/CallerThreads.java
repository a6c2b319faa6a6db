package dev.inferbench.serve;

import dev.inferbench.BenchException;
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
 *
 * <p>An {@link Error} in a caller (out of memory, a failed assertion, a native library that would not link) fails the
 * step as an exception does: a caller that ended without a word would leave a step that reports fewer calls as a
 * success.
 */
public final class CallerThreads {
    /** One caller's loop: {@code caller} is its index, {@code call} its own call. */
    @FunctionalInterface
    public interface Loop<C> {
        void run(int caller, C call) throws Exception;
    }

    /** Every thread, made before the first starts: a failing caller interrupts the others through this list. */
    private final List<Thread> threads;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    private <C> CallerThreads(List<C> callers, String name, Loop<C> loop) {
        List<Thread> made = new ArrayList<>();
        for (int c = 0; c < callers.size(); c++) {
            int index = c;
            C call = callers.get(c);
            Thread thread = new Thread(() -> runLoop(loop, index, call), name + "-" + c);
            thread.setDaemon(true);
            made.add(thread);
        }
        this.threads = List.copyOf(made);
    }

    public static <C> CallerThreads start(List<C> callers, String name, Loop<C> loop) {
        CallerThreads t = new CallerThreads(callers, name, loop);
        t.threads.forEach(Thread::start);
        return t;
    }

    private <C> void runLoop(Loop<C> loop, int index, C call) {
        try {
            ServingThreads.join(); // its CPU is the serving side's, apart from the generator's
            loop.run(index, call);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception | Error e) {
            if (failure.compareAndSet(null, e)) {
                threads.forEach(Thread::interrupt); // the others stop at their next wait
            }
        } finally {
            ServingThreads.leave();
        }
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

    /**
     * Waits for every loop to end (a call under way finishes: engines cannot be stopped mid-call), then rethrows the
     * first failure: an exception as it was, an Error as a {@link BenchException} naming it, the Error its cause.
     */
    public void join() throws Exception {
        for (Thread t : threads) {
            t.join();
        }
        Throwable first = failure.get();
        if (first instanceof Exception e) {
            throw e;
        }
        if (first != null) {
            throw new BenchException("a caller's call ended with " + first.getClass().getName() + ": "
                    + firstLine(first.getMessage()) + "; expected it to return or throw an exception", first);
        }
    }

    private static String firstLine(String message) {
        return message == null ? "no message" : message.strip().lines().findFirst().orElse("no message");
    }
}

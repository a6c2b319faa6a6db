package dev.inferbench.run;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Kills a fork that runs past its time limit. JMH's own timeout bounds one iteration and relies on the benchmark
 * noticing an interrupt; a fork stuck in native code, or in its setup, never returns. Killing the launcher's child
 * processes makes JMH report the fork as failed and the loop goes on with the next one.
 */
final class ForkWatchdog implements AutoCloseable {
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "inferbench-fork-watchdog");
        t.setDaemon(true);
        return t;
    });
    private volatile boolean fired;
    private ScheduledFuture<?> pending;

    void arm(Duration limit) {
        fired = false;
        pending = timer.schedule(() -> {
            fired = true;
            killForks();
        }, limit.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Whether the last armed limit was reached (and the fork killed). */
    boolean disarm() {
        if (pending != null) {
            pending.cancel(false);
        }
        return fired;
    }

    static void killForks() {
        ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}

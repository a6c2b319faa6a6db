package dev.inferbench;

import java.util.concurrent.TimeUnit;

/** Helper processes this JVM starts and ends itself (a busy neighbour, the CPUs kept busy). */
public final class ChildProcesses {
    private ChildProcesses() {
    }

    /** Kills {@code process} and waits up to 5 s for it to go. */
    public static void end(Process process) {
        process.destroyForcibly();
        try {
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

package dev.inferbench.plant;

import dev.inferbench.BenchException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A thread that competes for the caller's CPU when asked: the caller and the rival are both pinned to the CPU the
 * caller last ran on ({@code taskset -p -c CPU TID}, the Linux thread ids read from /proc/thread-self), the rival parks
 * until {@link #compete} and spins until {@link #rest}. While it spins the scheduler shares that one CPU between the
 * two, so the caller is descheduled: preempted by a runnable thread, not waiting for anything of its own. The
 * rival spins at most {@value #MOST_MS} ms a time.
 */
final class SameCpuRival {
    static final long MOST_MS = 50;
    private final Thread thread;
    private volatile long until;

    private SameCpuRival(Thread thread) {
        this.thread = thread;
    }

    /** Pins the calling thread to the CPU it runs on and starts a parked rival pinned there too. */
    static SameCpuRival besideThisThread() throws BenchException {
        String[] self = threadSelf();
        int cpu = lastCpu();
        pin(self[1], cpu);
        SameCpuRival[] made = new SameCpuRival[1];
        String[] failure = new String[1];
        Thread t = new Thread(() -> {
            try {
                pin(threadSelf()[1], cpu);
            } catch (BenchException e) {
                failure[0] = e.getMessage();
            }
            synchronized (made) {
                made.notifyAll();
            }
            while (true) {
                LockSupport.park();
                SameCpuRival r = made[0];
                while (r != null && System.nanoTime() < r.until) {
                    Thread.onSpinWait();
                }
            }
        }, "inferbench-rival");
        t.setDaemon(true);
        made[0] = new SameCpuRival(t);
        synchronized (made) {
            t.start();
            try {
                made.wait(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (failure[0] != null) {
            throw new BenchException(failure[0]);
        }
        System.out.println("[inferbench] plant: caller thread " + self[1] + " and its rival pinned to CPU " + cpu);
        return made[0];
    }

    void compete() {
        until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(MOST_MS);
        LockSupport.unpark(thread);
    }

    void rest() {
        until = 0;
    }

    /** This thread's process and Linux thread id, from the /proc/thread-self link ({@code PID/task/TID}). */
    private static String[] threadSelf() throws BenchException {
        try {
            String[] parts = Files.readSymbolicLink(Path.of("/proc/thread-self")).toString().split("/");
            return new String[] {parts[0], parts[parts.length - 1]};
        } catch (IOException | UnsupportedOperationException e) {
            throw new BenchException("the descheduled plant needs Linux's /proc/thread-self (" + e.getMessage() + ")", e);
        }
    }

    /** The CPU this thread last ran on: field 39 of /proc/thread-self/stat. */
    private static int lastCpu() throws BenchException {
        try {
            String stat = Files.readString(Path.of("/proc/thread-self/stat"), StandardCharsets.US_ASCII);
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Integer.parseInt(fields[39 - 3]);
        } catch (IOException | RuntimeException e) {
            throw new BenchException("the descheduled plant cannot read this thread's CPU from /proc/thread-self/stat ("
                    + e.getMessage() + ")", e);
        }
    }

    private static void pin(String tid, int cpu) throws BenchException {
        try {
            Process p = new ProcessBuilder("taskset", "-p", "-c", Integer.toString(cpu), tid)
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new BenchException("taskset could not pin thread " + tid + " to CPU " + cpu + "; the descheduled"
                        + " plant needs taskset (util-linux) and leave to set this process's affinity");
            }
        } catch (IOException e) {
            throw new BenchException("the descheduled plant needs taskset (util-linux) on the PATH (" + e.getMessage()
                    + ")", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchException("interrupted while pinning thread " + tid, e);
        }
    }
}

package dev.inferbench.plant;

import dev.inferbench.BenchException;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * A planted disturbance: in the forks {@code -Dinferbench.busyForks=2,4} names (by the fork number the run loop
 * gives each fork, {@code -Dinferbench.fork=N}), a process of its own beside the benchmark that keeps one core busy
 * from the fork's setup to its end, as another job on a shared machine would. It is a process, not a thread of the
 * fork, so that it shows where a real neighbour shows: in other processes' CPU and in the canary, never in the
 * fork's own figures. Forks not named run untouched.
 */
public final class BusyNeighbour implements AutoCloseable {
    public static final String PROPERTY = "inferbench.busyForks";
    /** The fork's number, set by the run loop on every fork's JVM. */
    public static final String FORK_PROPERTY = "inferbench.fork";

    private final Process process;

    private BusyNeighbour(Process process) {
        this.process = process;
    }

    /** {@code 2,4}: the fork numbers (from 1) that run beside a busy neighbour. */
    public static Set<Integer> parse(String text) throws BenchException {
        Set<Integer> forks = new TreeSet<>();
        for (String part : text.split(",")) {
            String p = part.strip();
            if (!p.matches("\\d{1,6}") || Integer.parseInt(p) < 1) {
                throw new BenchException("-D" + PROPERTY + "=" + text + ": cannot read '" + p + "'; expected fork"
                        + " numbers from 1 joined by commas, e.g. 2,4");
            }
            forks.add(Integer.parseInt(p));
        }
        return forks;
    }

    /** The neighbour of this fork, started, when this fork is one the plant names; null otherwise. */
    public static BusyNeighbour startIfPlanted() throws BenchException {
        String text = System.getProperty(PROPERTY);
        String fork = System.getProperty(FORK_PROPERTY);
        if (text == null || text.isBlank() || fork == null || !parse(text).contains(Integer.parseInt(fork.strip()))) {
            return null;
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        try {
            Process p = new ProcessBuilder(java, "-Xmx32m", "-XX:TieredStopAtLevel=1", "-cp",
                    System.getProperty("java.class.path"), BusyNeighbour.class.getName())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            System.out.println("[inferbench] plant: fork " + fork.strip() + " runs beside a busy neighbour (process "
                    + p.pid() + ", one core)");
            return new BusyNeighbour(p);
        } catch (IOException e) {
            throw new BenchException("cannot start the busy neighbour of -D" + PROPERTY + " (" + e.getMessage() + ")",
                    e);
        }
    }

    /** The neighbour's process id. */
    public long pid() {
        return process.pid();
    }

    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The neighbour's own JVM: one thread spinning until its parent (the fork) ends or it is killed. */
    public static void main(String[] args) throws InterruptedException {
        ProcessHandle parent = ProcessHandle.current().parent().orElse(null);
        Thread spin = new Thread(() -> {
            long x = 0;
            while (!Thread.currentThread().isInterrupted()) {
                x += System.nanoTime() & 1;
            }
            System.out.println(x);
        }, "busy-neighbour");
        spin.setDaemon(true);
        spin.start();
        while (parent != null && parent.isAlive()) {
            Thread.sleep(100);
        }
    }
}

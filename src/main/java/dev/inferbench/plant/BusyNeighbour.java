package dev.inferbench.plant;

import dev.inferbench.AtomicFile;
import dev.inferbench.BenchException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

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
        dev.inferbench.ChildProcesses.end(process);
    }

    /**
     * A neighbour that comes and goes, as a periodic job on a shared machine does: a process keeping one core busy
     * {@code busy} in every {@code period}, the first busy stretch after {@code delay}, until it is closed or this
     * JVM ends. Each busy stretch is written to {@code windows} as it ends, a line of its start and end in epoch
     * milliseconds, so that what it struck can be told from the fork's own times.
     */
    public static BusyNeighbour startPeriodic(Duration busy, Duration period, Duration delay, Path windows)
            throws BenchException {
        if (busy.isNegative() || busy.isZero() || busy.compareTo(period) >= 0) {
            throw new BenchException("a periodic neighbour busy " + busy + " in every " + period + "; expected a busy"
                    + " time above zero and below the period");
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        try {
            Process p = new ProcessBuilder(java, "-Xmx32m", "-XX:TieredStopAtLevel=1", "-cp",
                    System.getProperty("java.class.path"), BusyNeighbour.class.getName(),
                    Long.toString(busy.toMillis()), Long.toString(period.toMillis()), Long.toString(delay.toMillis()),
                    windows.toAbsolutePath().toString())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return new BusyNeighbour(p);
        } catch (IOException e) {
            throw new BenchException("cannot start a periodic busy neighbour (" + e.getMessage() + ")", e);
        }
    }

    /** The busy stretches a periodic neighbour wrote, each {start, end} in epoch milliseconds. */
    public static List<long[]> windows(Path file) throws BenchException {
        List<long[]> out = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(file)) {
                String[] parts = line.strip().split(" ");
                if (parts.length == 2 && parts[0].matches("\\d{1,19}") && parts[1].matches("\\d{1,19}")) {
                    out.add(new long[]{Long.parseLong(parts[0]), Long.parseLong(parts[1])});
                }
            }
        } catch (IOException e) {
            throw new BenchException("cannot read the neighbour's windows " + file + " (" + e.getMessage() + ")", e);
        }
        return out;
    }

    /**
     * The neighbour's own JVM: one thread spinning until its parent ends or it is killed; with the arguments
     * {@code BUSY_MS PERIOD_MS DELAY_MS FILE}, spinning {@code BUSY_MS} in every {@code PERIOD_MS} and writing each
     * stretch to {@code FILE} ({@link #startPeriodic}).
     */
    public static void main(String[] args) throws InterruptedException, IOException {
        ProcessHandle parent = ProcessHandle.current().parent().orElse(null);
        if (args.length == 4) {
            periodic(Long.parseLong(args[0]), Long.parseLong(args[1]), Long.parseLong(args[2]), Path.of(args[3]),
                    parent);
            return;
        }
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

    private static void periodic(long busyMs, long periodMs, long delayMs, Path file, ProcessHandle parent)
            throws InterruptedException, IOException {
        Thread.sleep(delayMs);
        long x = 0;
        while (parent == null || parent.isAlive()) {
            long start = System.currentTimeMillis();
            long until = System.nanoTime() + busyMs * 1_000_000L;
            while (System.nanoTime() < until) {
                x += System.nanoTime() & 1;
            }
            AtomicFile.appendLine(file, start + " " + System.currentTimeMillis());
            Thread.sleep(Math.max(0, start + periodMs - System.currentTimeMillis()));
        }
        System.out.println(x);
    }
}

package dev.inferbench.bench;

import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Keeps the two forks of a duet in step (compare-commits --duet, docs/duet.md): the base and the head fork
 * of one pair run at the same time, each pinned to its own CPUs, and every measured iteration of one starts together
 * with the same iteration of the other, so that whatever else the machine does hits both alike.
 *
 * <p>The two fork JVMs share nothing but a folder (the script empties it before each pair). Arriving at its n-th
 * iteration (warm-up and measurement counted together), a side writes {@code <side>.<n>} and waits until the other's
 * {@code <other>.<n>} exists; when it goes on it writes {@code <side>.<n>.met}, so the folder is also the record of
 * when each iteration started and on which CPUs. Warm-up runs apart: the side the script names in the folder's
 * {@value #WARMUP_FILE} file ({@code first=base}) warms up while the other waits, then the other while the first
 * waits, each on the CPUs that file names ({@code cpus=0-1}, both halves) so that its JIT compiles beside its calls
 * rather than on the one CPU of its measured thread; the side takes back its own CPUs before it measures.
 *
 * <p>In turns ({@code compare-commits --turns}, {@code -Dinferbench.duet=DIR:SIDE:turns}) the two forks still run at
 * the same time but never measure together: each iteration (warm-up and measurement alike) is a round in which one
 * side runs its iteration while the other sleeps, then the other runs its own. The side named {@code first=} leads the
 * odd rounds and the other the even ones (A B B A A B ...), so a machine whose speed drifts steadily within a pair
 * slows both sides alike. A side finishing its iteration writes {@code <side>.<n>.done} ({@link #leave}); the side
 * that runs second in round n waits for the leader's {@code .done} of n, the leader for the partner's of n - 1. Each
 * side has the whole machine for its turn, and the two sides' iterations are seconds apart, not a fork apart: on a
 * VM whose speed moves on the scale of seconds, the ratio of a pair measures the builds, not the minute.
 *
 * <p>A partner that makes no progress for {@link #TIMEOUT} (plus the iterations it may be in the middle of) is given
 * up: the side says so on stderr once and runs the rest of its fork alone, so a dead partner cannot hang a run.
 */
public final class DuetBarrier {
    /**
     * {@code -Dinferbench.duet=DIR:SIDE} (measure together) or {@code DIR:SIDE:turns} (take turns), SIDE base or head;
     * absent: no duet, {@link #arrive} and {@link #leave} do nothing.
     */
    public static final String PROPERTY = "inferbench.duet";
    /** The file in the duet folder that says which side warms up first and on which CPUs. */
    public static final String WARMUP_FILE = "warmup";
    static final Duration TIMEOUT = Duration.ofSeconds(120);
    private static final List<String> SIDES = List.of("base", "head");
    /** Short enough that the two sides start an iteration within about a millisecond of each other. */
    private static final long POLL_NS = TimeUnit.MILLISECONDS.toNanos(1);

    /** Sets the CPUs of every thread of this JVM (threads started later inherit them from their starter). */
    @FunctionalInterface
    interface Affinity {
        void set(String cpus) throws IOException;
    }

    /** The property's suffix for a fork that takes turns with its partner instead of measuring with it. */
    public static final String TURNS = "turns";

    private static final DuetBarrier OFF = new DuetBarrier(null, null, false, TIMEOUT, null, null, System.err);

    private final Path dir;
    private final String side;
    private final String other;
    /** Whether the two sides take turns (one measures while the other sleeps) rather than measure together. */
    private final boolean turns;
    private final Duration timeout;
    private final Affinity affinity;
    /** How long this JVM took to start and load: about what its partner, started with it, takes too. */
    private final Supplier<Duration> startup;
    private final PrintStream err;

    private int n;
    private int warmups;
    private Duration warmupTime = Duration.ZERO;
    /** The partner's highest iteration seen: a new one is progress and restarts the timeout. */
    private int partnerSeen;
    private boolean alone;
    /** This side's own CPUs while it runs on both halves for its warm-up turn; null otherwise. */
    private String ownCpus;
    /** In turns: whether this side leads the odd rounds (read from the folder's first= at the first iteration). */
    private boolean leadsOdd;

    DuetBarrier(Path dir, String side, boolean turns, Duration timeout, Affinity affinity, Supplier<Duration> startup,
                PrintStream err) {
        this.dir = dir;
        this.side = side;
        this.other = side == null ? null : SIDES.get(1 - SIDES.indexOf(side));
        this.turns = turns;
        this.timeout = timeout;
        this.affinity = affinity;
        this.startup = startup;
        this.err = err;
    }

    /** The barrier {@value #PROPERTY} asks for, or one that does nothing when it is not set. */
    public static DuetBarrier fromProperty() {
        String value = System.getProperty(PROPERTY);
        if (value == null || value.isEmpty()) {
            return OFF;
        }
        String rest = value;
        boolean inTurns = rest.endsWith(":" + TURNS);
        if (inTurns) {
            rest = rest.substring(0, rest.length() - TURNS.length() - 1);
        }
        int colon = rest.lastIndexOf(':');
        String side = colon < 0 ? "" : rest.substring(colon + 1);
        if (colon <= 0 || !SIDES.contains(side)) {
            throw new IllegalArgumentException("-D" + PROPERTY + "='" + value
                    + "' is not DIR:SIDE or DIR:SIDE:" + TURNS + " with SIDE base or head");
        }
        return new DuetBarrier(Path.of(rest.substring(0, colon)), side, inTurns, TIMEOUT, DuetBarrier::taskset,
                () -> Duration.ofMillis(ManagementFactory.getRuntimeMXBean().getUptime()), System.err);
    }

    /** Called from a benchmark's {@code @Setup(Level.Iteration)}: returns when this iteration may start. */
    public void arrive(IterationParams params) {
        if (dir == null) {
            return;
        }
        try {
            arrive(params.getType() == IterationType.WARMUP, params.getCount(),
                    Duration.ofNanos(params.getTime().convertTo(TimeUnit.NANOSECONDS)));
        } catch (IOException e) {
            // the duet only pairs forks; a fork that cannot pair still measures, and says why it ran alone
            err.println("[inferbench] duet: " + side + " cannot use " + dir + " (" + e.getMessage()
                    + "); it runs the rest of this fork alone");
            alone = true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Called from a benchmark's {@code @TearDown(Level.Iteration)}: in turns, hands the machine to the partner. */
    public void leave() {
        if (dir == null || !turns) {
            return;
        }
        try {
            write(side + "." + n + ".done", "done=" + Instant.now() + "\n");
        } catch (IOException e) {
            err.println("[inferbench] duet: " + side + " cannot use " + dir + " (" + e.getMessage()
                    + "); it runs the rest of this fork alone");
            alone = true;
        }
    }

    void arrive(boolean warmup, int count, Duration time) throws IOException, InterruptedException {
        n++;
        if (turns) {
            takeTurn(warmup, time);
            return;
        }
        if (warmup) {
            warmups = count;
            warmupTime = time;
            mark("warmup");
            if (n == 1) {
                startWarmup();
            } else {
                met();
            }
            return;
        }
        if (ownCpus != null) {
            setCpus(ownCpus); // before this side says it is ready, so the partner never warms beside it
            ownCpus = null;
        }
        mark("measurement");
        // the first measured iteration may wait for the partner's whole warm-up turn
        Duration turn = n == warmups + 1 ? warmupTime.multipliedBy(warmups) : Duration.ZERO;
        // without warm-up the first meeting also waits for the partner's start and load, which take about ours
        Duration load = n == 1 ? startup.get() : Duration.ZERO;
        await(n, turn.plus(time).plus(load));
        met();
    }

    /** Meets the partner once both are loaded, then waits for the partner's warm-up turn when it goes first. */
    private void startWarmup() throws IOException, InterruptedException {
        if (!await(1, startup.get())) {
            met();
            return;
        }
        Warmup plan = warmupPlan();
        if (!plan.first().equals(side)) {
            // the partner's first measured iteration is the end of its turn
            await(warmups + 1, warmupTime.multipliedBy(warmups));
        }
        met();
        if (!alone && plan.cpus() != null) {
            ownCpus = currentCpus();
            setCpus(plan.cpus());
        }
    }

    /**
     * Waits for this side's turn in round n: the leader of the round for the partner's iteration n - 1 to end (at the
     * first, for the partner to be loaded), the other for the leader's iteration n to end.
     */
    private void takeTurn(boolean warmup, Duration time) throws IOException, InterruptedException {
        mark(warmup ? "warmup" : "measurement");
        if (n == 1) {
            leadsOdd = warmupPlan().first().equals(side);
        }
        boolean leads = leadsOdd == (n % 2 == 1);
        if (n == 1 && leads) {
            await(1, startup.get());
        } else {
            // the partner's turn before ours: its iteration, plus its start and load at the first
            awaitDone(leads ? n - 1 : n, time.plus(n == 1 ? startup.get() : Duration.ZERO));
        }
        met();
    }

    /** Waits until the partner's iteration k has ended; false when it was given up (now or before). */
    private boolean awaitDone(int k, Duration extra) throws InterruptedException {
        return waitFor(() -> Files.exists(dir.resolve(other + "." + k + ".done")), "end iteration " + k, extra);
    }

    private record Warmup(String first, String cpus) {
    }

    private Warmup warmupPlan() throws IOException {
        Path file = dir.resolve(WARMUP_FILE);
        String first = SIDES.get(0);
        String cpus = null;
        if (Files.isRegularFile(file)) {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (line.startsWith("first=") && SIDES.contains(line.substring(6).trim())) {
                    first = line.substring(6).trim();
                } else if (line.startsWith("cpus=") && !line.substring(5).isBlank()) {
                    cpus = line.substring(5).trim();
                }
            }
        }
        return new Warmup(first, cpus);
    }

    /** Waits until the partner has reached iteration {@code target}; false when it was given up (now or before). */
    private boolean await(int target, Duration extra) throws InterruptedException {
        return waitFor(() -> partnerSeen >= target, "reach iteration " + target, extra);
    }

    /**
     * Polls until {@code reached}; false when the partner was given up (now or before). The limit restarts whenever
     * the partner reaches a new iteration, so only a partner that stopped moving is left.
     */
    private boolean waitFor(BooleanSupplier reached, String what, Duration extra) throws InterruptedException {
        if (alone) {
            return false;
        }
        long limit = timeout.plus(extra).toNanos();
        long deadline = System.nanoTime() + limit;
        while (!reached.getAsBoolean()) {
            if (Files.exists(dir.resolve(other + "." + (partnerSeen + 1)))) {
                partnerSeen++;
                deadline = System.nanoTime() + limit;
                continue;
            }
            if (System.nanoTime() - deadline > 0) {
                err.printf("[inferbench] duet: %s did not %s within %.0f s of its last one; %s runs the rest of this"
                        + " fork alone%n", other, what, limit / 1e9, side);
                alone = true;
                return false;
            }
            TimeUnit.NANOSECONDS.sleep(POLL_NS);
        }
        return true;
    }

    /** Says that this side has arrived at iteration n (written whole, so the partner never reads half a file). */
    private void mark(String type) throws IOException {
        write(side + "." + n, "type=" + type + " arrived=" + Instant.now() + " pid=" + ProcessHandle.current().pid()
                + " cpus=" + currentCpus() + "\n");
    }

    /** When this side started iteration n, and whether with its partner. */
    private void met() throws IOException {
        write(side + "." + n + ".met", (alone ? "alone=" : "met=") + Instant.now() + "\n");
    }

    private void write(String name, String text) throws IOException {
        Path tmp = dir.resolve(name + ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private void setCpus(String cpus) {
        try {
            affinity.set(cpus);
        } catch (IOException e) {
            err.println("[inferbench] duet: " + side + " could not move to CPUs " + cpus + " (" + e.getMessage()
                    + "); it stays where it is");
        }
    }

    /** This JVM's CPUs as the kernel lists them (e.g. 0-1), or ? where /proc does not say. */
    static String currentCpus() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.UTF_8)) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException e) {
            // not Linux: the record says it does not know
        }
        return "?";
    }

    private static void taskset(String cpus) throws IOException {
        Process p = new ProcessBuilder("taskset", "-a", "-p", "-c", cpus, Long.toString(ProcessHandle.current().pid()))
                .redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        try {
            if (p.waitFor() != 0) {
                throw new IOException("taskset: " + said);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while taskset ran");
        }
    }
}

package dev.inferbench.run;

import dev.inferbench.cell.Cell;
import dev.inferbench.cell.VaryingParams;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.results.RunLayout;
import dev.inferbench.BenchException;
import dev.inferbench.results.ForkTime;
import dev.inferbench.results.jmh.MeasuredCell;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Drives JMH one fork of one cell at a time, in rounds (fork 1 of every cell, then fork 2 of every cell ...), so
 * that drift of the machine spreads over all cells and every cell has a result early. Each fork is persisted the
 * moment it ends and jmh-result.json is rebuilt; a fork that fails or crashes is recorded and the run goes on;
 * a resumed run skips what has landed. The plan (what to run), the store (what landed) and the stopping rules
 * (when to stop) are kept apart.
 */
public final class RunLoop {
    /** What an invocation of the loop did. */
    public record Outcome(List<RunResult> results, Map<Cell, String> failures, int forksRun, int forksRemaining) {
    }

    /** The name of the result file JMH writes in a fork's folder; the loop keeps its own copy and deletes it. */
    static final String FORK_FILE = ".jmh-fork.json";
    /** How long a fork waits for another JMH run on the machine to end. */
    static final Duration LOCK_WAIT = Duration.ofMinutes(30);

    private final RunStore store;
    private final Plan plan;
    private final Options base;
    private final LoopSettings settings;
    private final List<ForkHook> hooks;
    private final PrintStream console;
    private final RunConsole out;
    private final PrecisionGoal precision;
    private List<String> catalogue;
    private volatile int landedCount;
    private volatile boolean finished;
    private Instant forkStart;

    public RunLoop(RunStore store, Plan plan, Options base, LoopSettings settings, List<ForkHook> hooks,
                   RunConsole out) {
        this.store = store;
        this.plan = plan;
        this.base = base;
        this.settings = settings;
        this.hooks = List.copyOf(hooks);
        this.console = out.terminal();
        this.out = out;
        this.precision = new PrecisionGoal(store, settings.precision());
    }

    public Outcome run() throws BenchException, IOException, RunStoppedException {
        List<Cell> cells = plan.runnableCells();
        Map<Cell, Set<Integer>> landed = new LinkedHashMap<>();
        for (Cell c : cells) {
            landed.put(c, new LinkedHashSet<>(store.forks().landed(c).keySet()));
        }
        boolean inPlace = System.console() != null && console == System.out && !out.showsJmh();
        ForkLimits time = forkLimits();
        // closed-loop cells have no planned time (NaN): the plan says so rather than guess from JMH's iterations
        double perFork = cells.stream().mapToDouble(time::measuredSeconds).filter(s -> !Double.isNaN(s)).average()
                .orElse(cells.isEmpty() ? time.iterationSeconds() : Double.NaN);
        try (Progress progress = new Progress(console, perFork, inPlace)) {
            return run(cells, landed, progress);
        }
    }

    private Outcome run(List<Cell> cells, Map<Cell, Set<Integer>> landed, Progress progress)
            throws BenchException, IOException, RunStoppedException {
        int already = landed.values().stream().mapToInt(Set::size).sum();
        VaryingParams varying = VaryingParams.of(cells.stream().map(Cell::params).toList());
        ForkLimits time = forkLimits();
        int remaining = 0;
        int unknown = 0;
        for (Cell c : cells) {
            int left = (int) (plan.forks() - landed.get(c).stream().filter(f -> f <= plan.forks()).count());
            remaining += left;
            unknown += Double.isNaN(time.measuredSeconds(c)) ? left : 0;
        }
        progress.plan(cells.size(), plan.forks(), remaining, unknown, already, plan.skipped().size(),
                store.dir().toString());
        for (Plan.Skipped s : plan.skipped()) {
            progress.println("[inferbench] skipped " + s.cell().label() + ": " + s.reason());
        }
        landedCount = already;
        Thread onInterrupt = new Thread(this::interrupted, "inferbench-interrupt");
        Runtime.getRuntime().addShutdownHook(onInterrupt);
        Map<Cell, String> failed = new LinkedHashMap<>();
        Set<String> rerun = new HashSet<>();
        int run = 0;
        boolean stoppedEarly = false;
        try (ForkWatchdog watchdog = new ForkWatchdog()) {
            rounds:
            for (int fork = 1; fork <= plan.forks(); fork++) {
                for (int i = 0; i < cells.size(); i++) {
                    Cell cell = cells.get(i);
                    if (landed.get(cell).contains(fork) || failed.containsKey(cell) || precision.reached(cell)) {
                        continue;
                    }
                    if (limitReached(run, progress) || !settings.pacer().next(() -> writeResult(cells))) {
                        stoppedEarly = true;
                        break rounds;
                    }
                    progress.fork(run, remaining, i + 1, cells.size(), Progress.name(cell, cells, varying), fork,
                            plan.forks());
                    Optional<String> failure = timedFork(cell, fork, watchdog, progress);
                    run++;
                    if (failure.isPresent() && killedFromOutside(failure.get()) && rerun.add(cell.id() + "#" + fork)) {
                        progress.println("[inferbench] " + Progress.name(cell, cells, varying) + " fork " + fork
                                + " was killed from outside (" + failure.get() + "); it runs once more");
                        i--; // the same cell and fork again: a kill is the machine's doing, not the cell's
                    } else if (failure.isPresent()) {
                        failed.put(cell, failure.get());
                        progress.println("[inferbench] " + Progress.name(cell, cells, varying) + " fork " + fork + " failed: "
                                + failure.get() + "; the cell's other forks are skipped"
                                + (out.verbose() ? "" : " (its stack trace: run with --verbose)"));
                    } else {
                        landed.get(cell).add(fork);
                        landedCount++;
                    }
                }
            }
            // a paced run's driver (compare-commits) pairs its forks and leaves disturbed pairs out itself
            while (!stoppedEarly && !plan.keepDisturbed() && !settings.pacer().writesOnRequest()) {
                Optional<Spares.Next> spare = nextSpare(cells, landed, failed);
                if (spare.isEmpty()) {
                    break;
                }
                if (limitReached(run, progress) || !settings.pacer().next(() -> writeResult(cells))) {
                    stoppedEarly = true;
                    break;
                }
                Spares.Next s = spare.get();
                String name = Progress.name(s.cell(), cells, varying);
                progress.println(s.line(name));
                progress.spare(run, name, s.fork(), s.spare(), s.of());
                Optional<String> failure = timedFork(s.cell(), s.fork(), watchdog, progress);
                run++;
                if (failure.isPresent()) {
                    failed.put(s.cell(), failure.get());
                    progress.println("[inferbench] " + name + " spare fork " + s.fork() + " failed: " + failure.get());
                } else {
                    landed.get(s.cell()).add(s.fork());
                    landedCount++;
                }
            }
        } finally {
            finished = true;
            removeHook(onInterrupt);
        }
        precision.report(cells, landed, failed, progress);
        for (Cell cell : cells) {
            if (!landed.get(cell).isEmpty()) {
                for (ForkHook h : hooks) {
                    h.afterCell(cell, store.forks().cellDir(cell));
                }
            }
        }
        int left = (int) cells.stream().filter(c -> !failed.containsKey(c) && !precision.reached(c))
                .mapToLong(c -> plan.forks() - landed.get(c).stream().filter(f -> f <= plan.forks()).count()).sum();
        return new Outcome(writeResult(cells), failed, run, stoppedEarly ? left : 0);
    }

    /** Runs one fork and tells the progress line how long it took; empty when it landed, else why it failed. */
    private Optional<String> timedFork(Cell cell, int fork, ForkWatchdog watchdog, Progress progress)
            throws BenchException, IOException, RunStoppedException {
        long t0 = System.nanoTime();
        Optional<String> failure = runFork(cell, fork, watchdog);
        progress.finished((System.nanoTime() - t0) / 1e9);
        return failure;
    }

    /** The next spare fork, from every landed fork's machine record ({@link Spares}). */
    private Optional<Spares.Next> nextSpare(List<Cell> cells, Map<Cell, Set<Integer>> landed, Map<Cell, String> failed)
            throws BenchException {
        if (settings.spares().of(plan.forks()) == 0) {
            return Optional.empty(); // no spares allowed: no cell's result is read for them
        }
        Map<Cell, MeasuredCell> measured = new LinkedHashMap<>();
        Set<Cell> skip = new HashSet<>(failed.keySet());
        for (Cell c : cells) {
            store.result().cell(c).ifPresent(m -> measured.put(c, m));
            if (precision.reached(c)) {
                skip.add(c);
            }
        }
        return Spares.next(cells, measured, landed, skip, plan.forks(), settings.spares());
    }

    /**
     * Whether a fork's JVM ended by SIGKILL or SIGTERM from outside (another process, the OOM killer, a test), not by
     * a failure of its own: exit 137 or 143, and not the watchdog's kill of a fork past its timeout. Such a fork runs
     * once more; a second kill fails the cell as any failure does.
     */
    static boolean killedFromOutside(String reason) {
        return reason.startsWith("forked VM failed with exit code 137")
                || reason.startsWith("forked VM failed with exit code 143");
    }

    /** Rewrites the run's merged result from every landed fork (the loop and, when interrupted, its hook). */
    private synchronized List<RunResult> writeResult(List<Cell> cells) throws BenchException, IOException {
        return store.result().rebuild(cells);
    }

    private boolean limitReached(int run, Progress progress) {
        if (settings.maxForks().isPresent() && run >= settings.maxForks().getAsInt()) {
            return true;
        }
        Duration budget = settings.budget();
        return budget != null && progress.elapsed().toMillis() / 1e3 + progress.forkSeconds() > budget.toMillis() / 1e3;
    }

    /** The benchmarks the run's own include pattern selects. */
    private List<String> catalogue() throws BenchException {
        if (catalogue == null) {
            catalogue = JmhDriver.benchmarks(base).stream().map(BenchmarkListEntry::getUsername).toList();
        }
        return catalogue;
    }

    /** Runs one fork; empty when it landed, else why it failed (also recorded in the run folder). */
    private Optional<String> runFork(Cell cell, int fork, ForkWatchdog watchdog)
            throws BenchException, IOException, RunStoppedException {
        Path forkDir = store.forks().forkDir(cell, fork);
        Path jmhFile = forkDir.resolve(FORK_FILE);
        ChainedOptionsBuilder b = new OptionsBuilder().parent(base)
                .include("^" + Pattern.quote(cell.benchmark()) + "$")
                .mode(Mode.deepValueOf(cell.mode()))
                .forks(1)
                .warmupForks(0)
                .shouldFailOnError(false)
                // JMH writes a result file only when one is set (or -rf/-rff came from the user): keep it in the fork
                .result(jmhFile.toString());
        cell.params().forEach(b::param);
        // a cell's concurrent callers are JMH's threads, each with its own thread-scoped input (InferenceBenchmark);
        // a single-shot cell's one invocation runs its callers on threads of its own (ServingBenchmark's steps)
        if (!cell.mode().equals(Mode.SingleShotTime.shortLabel())) {
            Optional.ofNullable(cell.params().get(CellSpec.CALLERS)).map(Integer::parseInt).ifPresent(b::threads);
        }
        // JMH adds a parent's includes to the child's: the run's own pattern (e.g. 'Inference|EndToEnd') would run
        // every benchmark it selects in this fork, so the others are excluded by name
        for (String other : catalogue()) {
            if (!other.equals(cell.benchmark())) {
                b.exclude("^" + Pattern.quote(other) + "$");
            }
        }
        for (ForkHook h : hooks) {
            h.beforeFork(cell, fork, forkDir, b);
        }
        ForkConsole forkConsole = new ForkConsole(out, fork, Math.max(fork, plan.forks()), hooks);
        FailureFilter output = new FailureFilter(OutputFormatFactory.createFormatInstance(forkConsole.stream(), out.jmh()),
                out.verbose());
        Optional<RunResult> result;
        boolean killed;
        try {
            result = runWhenJmhIsFree(ForkFolder.forkOptions(b.build(), forkDir, fork), output, watchdog, cell);
        } finally {
            killed = watchdog.disarm();
            forkConsole.flush();
            Files.deleteIfExists(jmhFile);
        }
        boolean ok = result.isPresent() && !killed;
        if (ok) {
            try {
                store.forks().save(cell, fork, result.get(), new ForkTime(forkStart, Instant.now()));
                if (!settings.pacer().writesOnRequest()) {
                    writeResult(plan.runnableCells());
                }
            } catch (IOException e) {
                throw new RunStoppedException("cannot write the result of " + cell.label() + " fork " + fork + " ("
                        + OneLine.of(e) + "); the forks written before it are kept in " + store.dir()
                        + "; free space and continue with: " + store.resumeCommand(), e);
            }
        }
        for (ForkHook h : hooks) {
            h.afterFork(cell, fork, forkDir, ok);
        }
        if (ok) {
            ForkFolder.deleteIfEmpty(forkDir);
            return Optional.empty();
        }
        String reason = killed ? "still running after the fork timeout of " + Progress.clock(forkLimits().timeout(cell).toMillis() / 1e3)
                + "; killed (set --fork-timeout to allow longer)"
                : output.failures().stream().findFirst().map(FailureFilter.Failure::reason).orElse("the fork produced no result")
                        + FailureRecord.crashSite(output.crashTail());
        store.failures().save(cell, fork, FailureRecord.text(reason, output.crashTail(), ForkFolder.crashLogs(forkDir),
                store.layout().cellFailures(cell.id())));
        ForkFolder.deleteIfEmpty(forkDir);
        return Optional.of(reason);
    }

    /**
     * Another JMH run on this machine (JMH keeps a machine-wide lock so that two runs never measure each other)
     * delays the fork rather than failing it; after {@link #LOCK_WAIT} the run stops, resumable.
     */
    private Optional<RunResult> runWhenJmhIsFree(Options options, FailureFilter output, ForkWatchdog watchdog,
                                                  Cell cell)
            throws BenchException, RunStoppedException {
        long deadline = System.nanoTime() + LOCK_WAIT.toNanos();
        boolean said = false;
        while (true) {
            try {
                // the fork's time limit counts from the attempt that gets the lock, not from the wait
                watchdog.arm(forkLimits().timeout(cell));
                // the fork's wall time, too, counts from the attempt that gets the lock
                forkStart = Instant.now();
                return JmhDriver.runFork(options, output);
            } catch (JmhDriver.LockBusy busy) {
                watchdog.disarm();
                if (System.nanoTime() > deadline) {
                    throw new RunStoppedException("another JMH run has held JMH's machine-wide lock for "
                            + Progress.clock(LOCK_WAIT.toSeconds()) + "; nothing is lost: continue with "
                            + store.resumeCommand() + " when it ends", busy);
                }
                if (!said) {
                    console.println("[inferbench] another JMH run is measuring on this machine; waiting for it to end");
                    said = true;
                }
                try {
                    Thread.sleep(2000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new RunStoppedException("interrupted while waiting for another JMH run to end", e);
                }
            }
        }
    }

    private ForkLimits forkLimits() {
        return new ForkLimits(plan.settings(), settings.forkTimeout());
    }

    /** Ctrl-C or a kill: what landed is already on disk; say so, and stop the fork in flight. */
    private void interrupted() {
        if (finished) {
            return;
        }
        ForkWatchdog.killForks();
        if (settings.pacer().writesOnRequest()) {
            try {
                writeResult(plan.runnableCells());
            } catch (BenchException | IOException | RuntimeException e) {
                System.err.println("inferbench: could not write " + RunLayout.RESULT + " (" + OneLine.of(e)
                        + "); --resume writes it");
            }
        }
        System.err.println();
        System.err.println("inferbench: interrupted; " + landedCount + " fork" + (landedCount == 1 ? "" : "s")
                + " kept in " + store.dir() + " (" + RunLayout.RESULT + " holds them); continue with: "
                + store.resumeCommand());
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException ignored) {
            // the JVM is already shutting down: the hook runs and sees finished == true
        }
    }
}

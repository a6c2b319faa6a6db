package dev.inferbench.prepare;

import dev.inferbench.BenchException;
import dev.inferbench.cell.Cell;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.results.Fingerprint;
import dev.inferbench.results.RunFolder;
import dev.inferbench.results.RunLayout;
import dev.inferbench.run.Plan;
import dev.inferbench.run.RunStore;
import dev.inferbench.run.Shard;
import org.openjdk.jmh.runner.Defaults;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.TimeValue;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Everything a run needs before its first fork: a new run's plan and folder, or the plan and folder of a run being
 * resumed, the JMH options every fork starts from, and the environment fingerprint of the machine it runs on.
 */
public final class RunSetup {
    private RunSetup() {
    }

    /** {@code asyncOptions}: the user's {@code -prof async[:...]} options, run per fork; {@code null} when none. */
    public record Prepared(CommandLineOptions cmd, BenchConfig config, Options options, Plan plan, RunStore store,
                    String asyncOptions) {
    }

    /** @param cellsFile {@code --cells FILE}: an explicit list of configurations ({@link CellList}), or null */
    public static Prepared create(JmhArgs.Parsed args, Path runDir, Shard shard, Path cellsFile, LocalDateTime now,
                                  PrintStream progress) throws BenchException, IOException {
        return create(args, runDir, shard, cellsFile, now, progress, false, false);
    }

    /**
     * @param keepDisturbed {@code --keep-disturbed}: the plan keeps every fork in the figures (kept for resume)
     * @param tail          {@code --tail}: every fork records its slow calls (kept for resume)
     */
    public static Prepared create(JmhArgs.Parsed args, Path runDir, Shard shard, Path cellsFile, LocalDateTime now,
                                  PrintStream progress, boolean keepDisturbed, boolean tail)
            throws BenchException, IOException {
        BenchConfig config = BenchConfig.load();
        Options options = JmhOptions.options(args.cmd(), config).build();
        int forks = options.getForkCount().orElse(Defaults.MEASUREMENT_FORKS);
        if (forks < 1) {
            throw new BenchException(forks + " forks per cell (run.forks or -f) measures nothing; expected 1 or more");
        }
        Plan planned = Planner.plan(args, options, config, shard, cellsFile, progress);
        Plan kept = keepDisturbed ? planned.keepingDisturbed() : planned;
        Plan plan = tail ? kept.tailing() : kept;
        Path dir = runDir != null ? runDir : RunFolder.create(JmhOptions.resultsRoot(config), now,
                shard.isWhole() ? "" : "-shard-" + shard.index() + "-of-" + shard.count());
        return fingerprinted(new Prepared(args.cmd(), config, options, plan, RunStore.create(dir, plan),
                args.asyncOptions()));
    }

    /**
     * A run continues with its own plan; only the stopping rules and a larger {@code -f} may be given anew (so a
     * run can be extended by more forks per cell), and the plan's own options again, which is how a user vouches
     * for what {@link FolderTrust} would refuse of a folder ({@code trusted}: {@code --trust-folder}, for all of it).
     */
    public static Prepared resume(Path dir, JmhArgs.Parsed extra, boolean trusted, PrintStream progress)
            throws BenchException, IOException {
        CommandLineOptions more = extra.cmd();
        RunStore store = RunStore.open(dir);
        Plan plan = store.plan();
        List<String> unexpected = FolderTrust.notRepeated(extra.given(), plan);
        if (!unexpected.isEmpty()) {
            throw new BenchException("--resume takes no JMH options but -f N (more forks per cell) and the run's own"
                    + " options given again; got " + String.join(" ", unexpected) + "; the run's settings are in "
                    + dir.resolve(RunLayout.PLAN));
        }
        BenchConfig local = BenchConfig.load();
        FolderTrust.check(dir, plan, extra.given(), trusted, local.file(), local.models().keySet());
        store.forks().check(plan.runnableCells());
        if (more.getForkCount().hasValue() && more.getForkCount().get() > plan.forks()) {
            plan = plan.withForks(more.getForkCount().get());
            store.writePlan(plan);
        }
        JmhArgs.Parsed args = JmhArgs.read(plan.args());
        BenchConfig config = plan.config() != null ? BenchConfig.fromFile(Path.of(plan.config())) : BenchConfig.load();
        ChainedOptionsBuilder b = JmhOptions.options(args.cmd(), config);
        Plan.Settings s = plan.settings();
        if (s.warmupIterations() != null) {
            b.warmupIterations(s.warmupIterations());
        }
        if (s.warmupTime() != null) {
            b.warmupTime(TimeValue.fromString(s.warmupTime()));
        }
        if (s.iterations() != null) {
            b.measurementIterations(s.iterations());
        }
        if (s.time() != null) {
            b.measurementTime(TimeValue.fromString(s.time()));
        }
        Options options = b.build();
        MatrixCheck.prepare(plan.runnableCells(), config, progress);
        return fingerprinted(new Prepared(args.cmd(), config, options, plan, store, args.asyncOptions()));
    }

    /** Writes environment.json, with the digests of the registered model files the plan measures. */
    private static Prepared fingerprinted(Prepared prepared) throws IOException, BenchException {
        Map<String, Path> files = new TreeMap<>();
        for (Cell cell : prepared.plan().cells()) {
            String model = cell.params().get(CellSpec.MODEL);
            if (model != null && prepared.config().models().containsKey(model)) {
                files.put(model, prepared.config().models().get(model).file());
            }
        }
        Fingerprint.write(prepared.store().dir(), files);
        return prepared;
    }
}

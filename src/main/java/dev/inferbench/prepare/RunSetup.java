package dev.inferbench.prepare;

import java.util.ArrayList;
import dev.inferbench.results.RunLayout;
import dev.inferbench.BenchException;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.profile.UserAsyncHook;
import dev.inferbench.results.RunFolder;
import dev.inferbench.cell.Cell;
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

/**
 * Everything a run needs before its first fork: a new run's plan and folder, or the plan and folder of a run being
 * resumed, and the JMH options every fork starts from.
 */
public final class RunSetup {
    private RunSetup() {
    }

    /** {@code asyncOptions}: the user's {@code -prof async[:...]} options, run per fork; {@code null} when none. */
    public record Prepared(CommandLineOptions cmd, BenchConfig config, Options options, Plan plan, RunStore store,
                    String asyncOptions) {
    }

    /** @param cellsFile {@code --cells FILE}: an explicit list of configurations ({@link CellList}), or null */
    public static Prepared create(List<String> userArgs, Path runDir, Shard shard, Path cellsFile, LocalDateTime now,
                                  PrintStream progress) throws BenchException, IOException {
        UserAsyncHook.Split split = UserAsyncHook.split(userArgs);
        CommandLineOptions cmd = JmhArgs.parse(split.jmhArgs());
        BenchConfig config = BenchConfig.load();
        Options options = JmhOptions.options(cmd, config).build();
        int forks = options.getForkCount().orElse(Defaults.MEASUREMENT_FORKS);
        if (forks < 1) {
            throw new BenchException(forks + " forks per cell (run.forks or -f) measures nothing; expected 1 or more");
        }
        List<String> given = new ArrayList<>();
        List<String> jmhArgs = split.jmhArgs();
        for (int i = 0; i + 1 < jmhArgs.size(); i++) {
            if (jmhArgs.get(i).equals("-p")) {
                given.add(jmhArgs.get(i + 1).split("=", 2)[0].strip());
            }
        }
        Planner.checkParamNames(given, "-p");
        Planner.checkParamNames(config.defaultParamNames(), "param.* in " + config.file().map(Path::toString)
                .orElse(BenchConfig.FILE_NAME));
        List<Cell> cells = cellsFile == null ? Planner.cells(options)
                : CellList.cells(CellList.read(cellsFile), options, cellsFile.toString());
        MatrixCheck.prepare(cells, config, progress);
        Plan plan = Plan.of(userArgs, config.file().map(p -> p.toAbsolutePath().toString()).orElse(null),
                options.getForkCount().orElse(Defaults.MEASUREMENT_FORKS), settings(options), shard, cells,
                Planner.skipped(cells, config, SkipRules.ALL));
        Path dir = runDir != null ? runDir : RunFolder.create(JmhOptions.resultsRoot(config), now,
                shard.isWhole() ? "" : "-shard-" + shard.index() + "-of-" + shard.count());
        return new Prepared(cmd, config, options, plan, RunStore.create(dir, plan), split.asyncOptions());
    }

    /**
     * A run continues with its own plan; only the stopping rules and a larger {@code -f} may be given anew (so a
     * run can be extended by more forks per cell).
     */
    public static Prepared resume(Path dir, List<String> args, PrintStream progress) throws BenchException, IOException {
        CommandLineOptions extra = JmhArgs.parse(args);
        if (args.size() != (extra.getForkCount().hasValue() ? 2 : 0)) {
            throw new BenchException("--resume takes no JMH options but -f N (more forks per cell); got "
                    + String.join(" ", args) + "; the run's settings are in " + dir.resolve(RunLayout.PLAN));
        }
        RunStore store = RunStore.open(dir);
        Plan plan = store.plan();
        if (extra.getForkCount().hasValue() && extra.getForkCount().get() > plan.forks()) {
            plan = plan.withForks(extra.getForkCount().get());
            store.writePlan(plan);
        }
        UserAsyncHook.Split split = UserAsyncHook.split(plan.args());
        CommandLineOptions cmd = JmhArgs.parse(split.jmhArgs());
        BenchConfig config = plan.config() != null ? BenchConfig.fromFile(Path.of(plan.config())) : BenchConfig.load();
        ChainedOptionsBuilder b = JmhOptions.options(cmd, config);
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
        return new Prepared(cmd, config, options, plan, store, split.asyncOptions());
    }

    private static Plan.Settings settings(Options o) {
        return new Plan.Settings(o.getWarmupIterations().orElse(null),
                o.getWarmupTime().hasValue() ? o.getWarmupTime().get().toString() : null,
                o.getMeasurementIterations().orElse(null),
                o.getMeasurementTime().hasValue() ? o.getMeasurementTime().get().toString() : null);
    }
}

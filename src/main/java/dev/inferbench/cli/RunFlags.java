package dev.inferbench.cli;

import dev.inferbench.Numbers;
import dev.inferbench.BenchException;
import dev.inferbench.compare.Threshold;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.flow.RunOptions;
import dev.inferbench.profile.FlameSettings;
import dev.inferbench.run.LoopSettings;
import dev.inferbench.run.Pacer;
import dev.inferbench.run.Shard;
import dev.inferbench.run.Spares;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import dev.inferbench.results.CallFigures;
import dev.inferbench.stats.Percentiles;

/**
 * inferbench's own flags of a benchmark run ({@link RunOptions}), taken out of the argument list before the rest goes
 * to JMH's parser:
 * {@code --resume DIR}, {@code --trust-folder}, {@code --run-dir DIR}, {@code --shard i/n}, {@code --max-forks N}, {@code --fork-timeout D},
 * {@code --precision P}, {@code --budget D}, {@code --flame}, {@code --flame-events E}, {@code --flame-optional}, {@code --op-profile},
 * {@code --threshold T} (repeatable), {@code --cells FILE}, {@code --paced}, {@code --percentiles 50,90,99.9},
 * {@code --config FILE}, {@code --rerun-disturbed N|P%}, {@code --keep-disturbed}.
 *
 * @param config {@code --config FILE}: the user's own benchmarks.properties, outside the checkout; null for the usual
 *               lookup ({@link BenchConfig#load})
 */
record RunFlags(RunOptions options, List<String> jmhArgs, Path config) {

    static RunFlags extract(List<String> args) throws BenchException {
        List<String> rest = new ArrayList<>();
        Path resume = null;
        Path runDir = null;
        Path cells = null;
        Shard shard = Shard.WHOLE;
        OptionalInt maxForks = OptionalInt.empty();
        Duration forkTimeout = null;
        OptionalDouble precision = OptionalDouble.empty();
        Duration budget = null;
        FlameSettings flame = null;
        List<String> thresholds = new ArrayList<>();
        double[] percentiles = CallFigures.DEFAULT_PERCENTILES;
        boolean opProfile = false;
        boolean flameOptional = false;
        boolean trustFolder = false;
        Pacer pacer = Pacer.FREE;
        Path config = null;
        Spares.Budget spares = Spares.Budget.DEFAULT;
        boolean keepDisturbed = false;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--resume" -> resume = Path.of(FlagValue.of(args, ++i, a, "a run folder, e.g. results/<yyyyMMdd-HHmmss>-<git sha>"));
                case "--config" -> config = configFile(FlagValue.of(args, ++i, a, "a properties file, e.g. my-models.properties"));
                case "--cells" -> cells = Path.of(FlagValue.of(args, ++i, a, "a file of configurations, one per line"));
                case "--run-dir" -> runDir = Path.of(FlagValue.of(args, ++i, a, "a folder for the new run"));
                case "--shard" -> shard = Shard.parse(FlagValue.of(args, ++i, a, "i/n, e.g. 2/4"));
                case "--max-forks" -> maxForks = OptionalInt.of(Numbers.wholeAtLeast(
                        FlagValue.of(args, ++i, a, "a whole number >= 1"), 1, a, "forks per cell, e.g. --max-forks 5"));
                case "--fork-timeout" -> forkTimeout = Numbers.duration(FlagValue.of(args, ++i, a, "a duration, e.g. 10m"), a);
                case "--precision" -> precision = OptionalDouble.of(Numbers.percent(FlagValue.of(args, ++i, a, "a percentage, e.g. 2%"), a));
                case "--budget" -> budget = Numbers.duration(FlagValue.of(args, ++i, a, "a duration, e.g. 20m"), a);
                case "--flame" -> flame = flame != null ? flame : FlameSettings.parse(FlameSettings.DEFAULT);
                case "--threshold" -> {
                    String t = FlagValue.of(args, ++i, a, "a check, e.g. 'batchSize=1:p99<100ms' or 'samples>40'");
                    Threshold.parse(t); // a typo fails here, before any fork
                    thresholds.add(t);
                }
                case "--percentiles" -> percentiles = Percentiles.parseList(FlagValue.of(args, ++i, a, "percentiles, e.g. 50,90,99.9"));
                case "--op-profile" -> opProfile = true;
                case "--paced" -> pacer = Pacer.lines(System.in, System.out);
                case "--flame-optional" -> flameOptional = true;
                case "--trust-folder" -> trustFolder = true;
                case "--rerun-disturbed" -> spares = Spares.Budget.parse(FlagValue.of(args, ++i, a,
                        "spare forks per cell, e.g. 2 or 25%"), a);
                case "--keep-disturbed" -> keepDisturbed = true;
                case "--flame-events" -> flame = FlameSettings.parse(FlagValue.of(args, ++i, a, "events, e.g. cpu,alloc"));
                default -> rest.add(a);
            }
        }
        if (resume != null && (runDir != null || !shard.isWhole() || cells != null)) {
            throw new BenchException("--resume continues the run in its own folder, slice and cells; expected no"
                    + " --run-dir, --shard or --cells with it");
        }
        if (trustFolder && resume == null) {
            throw new BenchException("--trust-folder says the folder --resume continues is yours; expected --resume DIR"
                    + " with it");
        }
        if (keepDisturbed && resume != null) {
            throw new BenchException("--keep-disturbed is part of a new run's plan; a resumed run keeps its plan's"
                    + " choice: expected no --keep-disturbed with --resume");
        }
        return new RunFlags(new RunOptions(resume, trustFolder, runDir, shard, cells,
                new LoopSettings(maxForks, forkTimeout, precision, budget, pacer, spares), flame, flameOptional,
                opProfile, List.copyOf(thresholds), percentiles, keepDisturbed), rest, config);
    }

    /**
     * Makes the file the configuration of this launcher and, through {@code JmhOptions}, of every fork: both read it
     * from the one system property {@link BenchConfig#load} looks at first.
     */
    void applyConfig() {
        if (config != null) {
            System.setProperty(BenchConfig.CONFIG_PROPERTY, config.toAbsolutePath().toString());
        }
    }

    private static Path configFile(String v) throws BenchException {
        Path p = Path.of(v);
        if (!Files.isRegularFile(p)) {
            throw new BenchException("config file not found: " + p + " (from --config); expected a properties file"
                    + " such as benchmarks.properties");
        }
        BenchConfig.fromFile(p); // a bad key fails here, naming the file, before anything else reads it
        return p;
    }

}

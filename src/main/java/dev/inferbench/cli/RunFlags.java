package dev.inferbench.cli;

import dev.inferbench.BenchException;
import dev.inferbench.compare.Threshold;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.flow.RunOptions;
import dev.inferbench.profile.FlameSettings;
import dev.inferbench.run.LoopSettings;
import dev.inferbench.run.Pacer;
import dev.inferbench.run.Shard;
import dev.inferbench.run.Spares;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import dev.inferbench.results.CallFigures;
import dev.inferbench.stats.Percentiles;

/**
 * inferbench's own flags of a benchmark run ({@link RunOptions}), taken out of the argument list before the rest goes
 * to JMH's parser; the jar's help lists them ({@link #OPTIONS}).
 *
 * @param config {@code --config FILE}: the user's own benchmarks.properties, outside the checkout; null for the usual
 *               lookup ({@link BenchConfig#load})
 */
record RunFlags(RunOptions options, List<String> jmhArgs, Path config) {
    static final Options OPTIONS = new Options("", "").passing();
    private static final Options.Flag<Path> RESUME = OPTIONS.value("--resume", "DIR",
            Options.FOLDER.expecting("a run folder, e.g. results/<yyyyMMdd-HHmmss>-<git sha>"), null,
            "continue the run in DIR with its own plan and settings; with -f N, more forks per cell");
    private static final Options.Flag<Boolean> TRUST_FOLDER = OPTIONS.toggle("--trust-folder",
            "the folder --resume continues is yours: its JMH options run as they are");
    private static final Options.Flag<Path> RUN_DIR = OPTIONS.value("--run-dir", "DIR",
            Options.FOLDER.expecting("a folder for the new run"), null,
            "the run folder (default results/<yyyyMMdd-HHmmss>-<git sha>)");
    private static final Options.Flag<Path> CONFIG = ConfigFlag.declare(OPTIONS);
    private static final Options.Flag<Path> CELLS = OPTIONS.value("--cells", "FILE",
            Options.FILE.expecting("a file of configurations, one per line"), null,
            "the configurations a file lists, one per line (e.g. batchSize=8 precision=fp16)");
    private static final Options.Flag<Shard> SHARD = OPTIONS.value("--shard", "i/n",
            new Options.Type<>("i/n, e.g. 2/4", (t, f) -> Shard.parse(t)), Shard.WHOLE,
            "the i-th of n slices of the plan (merge joins them)");
    private static final Options.Flag<Integer> MAX_FORKS = OPTIONS.value("--max-forks", "N",
            Options.whole(1, "forks per cell, e.g. --max-forks 5"), null, "stop after N forks (the run stays resumable)");
    private static final Options.Flag<Duration> FORK_TIMEOUT = OPTIONS.value("--fork-timeout", "D",
            Options.DURATION.expecting("a duration, e.g. 10m"), null, "a fork still running after D is stopped and"
                    + " recorded as failed (default 3 x the fork's expected time, at least 5 minutes)");
    private static final Options.Flag<Double> PRECISION = OPTIONS.value("--precision", "P", Options.PERCENT, null,
            "a cell gets no more forks once its interval is narrower than P, from its 8th fork on; -f N is then the most");
    private static final Options.Flag<Duration> BUDGET = OPTIONS.value("--budget", "D", Options.DURATION, null,
            "start no fork once the run would take longer than D");
    private static final Options.Flag<Boolean> PACED = OPTIONS.toggle("--paced",
            "run each fork when a line arrives on stdin (how compare-commits interleaves two builds)");
    private static final Options.Flag<Boolean> FLAME = OPTIONS.toggle("--flame",
            "each fork's and cell's flame graphs (" + FlameSettings.DEFAULT + ")");
    private static final Options.Flag<FlameSettings> FLAME_EVENTS = OPTIONS.value("--flame-events", "E",
            new Options.Type<>("events, e.g. cpu,alloc", (t, f) -> FlameSettings.parse(t)), null,
            "flame graphs of these events, e.g. cpu,alloc,ops");
    private static final Options.Flag<Boolean> FLAME_OPTIONAL = OPTIONS.toggle("--flame-optional",
            "run on without flame graphs where the profiler cannot start");
    private static final Options.Flag<Boolean> OP_PROFILE = OPTIONS.toggle("--op-profile",
            "ONNX Runtime's per-operator profile of each ort cell, in a JVM of its own");
    private static final Options.Flag<Boolean> TAIL = OPTIONS.toggle("--tail",
            "each fork records its slow calls and what the JVM did during them (JFR); the summary says per cell what"
                    + " made its p99 (GC pauses, safepoints, waits, descheduled, ...)");
    private static final Options.Flag<String> THRESHOLD = OPTIONS.value("--threshold", "T",
            new Options.Type<>("a check, e.g. 'batchSize=1:p99<100ms' or 'samples>40'", (t, f) -> {
                Threshold.parse(t); // a typo fails here, before any fork
                return t;
            }), null, "an absolute bound, '[param=v:]metric<value', checked at the end (exit 1 when one fails)")
            .repeatable();
    private static final Options.Flag<double[]> PERCENTILES = OPTIONS.value("--percentiles", "LIST",
            new Options.Type<>("percentiles, e.g. 50,90,99.9", (t, f) -> Percentiles.parseList(t)),
            CallFigures.DEFAULT_PERCENTILES, "the summary's percentiles of the calls, e.g. 50,90,99.9");
    private static final Options.Flag<Spares.Budget> RERUN_DISTURBED = OPTIONS.value("--rerun-disturbed", "N|P%",
            new Options.Type<>("spare forks per cell, e.g. 2 or 25%", Spares.Budget::parse), Spares.Budget.DEFAULT,
            "forks run while the machine was disturbed are run again, up to N (or P % of the forks) more a cell"
                    + " (default 25%; 0: none)");
    private static final Options.Flag<Boolean> KEEP_DISTURBED = OPTIONS.toggle("--keep-disturbed",
            "the figures of every fork, those run while the machine was disturbed too (no spares)");

    static RunFlags extract(List<String> args) throws BenchException {
        Options.Parsed p = OPTIONS.parse(args);
        Path resume = p.get(RESUME);
        if (resume != null && (p.has(RUN_DIR) || !p.get(SHARD).isWhole() || p.has(CELLS))) {
            throw new BenchException("--resume continues the run in its own folder, slice and cells; expected no"
                    + " --run-dir, --shard or --cells with it");
        }
        if (p.get(TRUST_FOLDER) && resume == null) {
            throw new BenchException("--trust-folder says the folder --resume continues is yours; expected --resume DIR"
                    + " with it");
        }
        if (p.get(KEEP_DISTURBED) && resume != null) {
            throw new BenchException("--keep-disturbed is part of a new run's plan; a resumed run keeps its plan's"
                    + " choice: expected no --keep-disturbed with --resume");
        }
        FlameSettings flame = p.has(FLAME_EVENTS) ? p.get(FLAME_EVENTS)
                : p.get(FLAME) ? FlameSettings.parse(FlameSettings.DEFAULT) : null;
        OptionalInt maxForks = p.has(MAX_FORKS) ? OptionalInt.of(p.get(MAX_FORKS)) : OptionalInt.empty();
        OptionalDouble precision = p.has(PRECISION) ? OptionalDouble.of(p.get(PRECISION)) : OptionalDouble.empty();
        Pacer pacer = p.get(PACED) ? Pacer.lines(System.in, System.out) : Pacer.FREE;
        return new RunFlags(new RunOptions(resume, p.get(TRUST_FOLDER), p.get(RUN_DIR), p.get(SHARD), p.get(CELLS),
                new LoopSettings(maxForks, p.get(FORK_TIMEOUT), precision, p.get(BUDGET), pacer,
                        p.get(RERUN_DISTURBED)), flame, p.get(FLAME_OPTIONAL), p.get(OP_PROFILE), p.all(THRESHOLD),
                p.get(PERCENTILES), p.get(KEEP_DISTURBED), p.get(TAIL)), p.operands(), p.get(CONFIG));
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
}

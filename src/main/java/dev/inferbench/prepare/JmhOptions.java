package dev.inferbench.prepare;

import dev.inferbench.plant.BusyNeighbour;
import dev.inferbench.plant.HeldArrivals;
import dev.inferbench.plant.Plant;
import dev.inferbench.plant.TailPlant;
import dev.inferbench.cell.BenchmarkNames;
import dev.inferbench.BenchException;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.metrics.ModelStatsProfiler;
import dev.inferbench.metrics.QualityProfiler;
import dev.inferbench.metrics.CallBytesProfiler;
import dev.inferbench.metrics.CpuProfiler;
import dev.inferbench.metrics.IoProfiler;
import dev.inferbench.metrics.MachineProfiler;
import dev.inferbench.metrics.MemoryProfiler;
import dev.inferbench.metrics.CallMeanProfiler;
import dev.inferbench.metrics.SamplesProfiler;
import dev.inferbench.metrics.SetupProfiler;
import dev.inferbench.metrics.TrainingProfiler;
import dev.inferbench.serve.ServingProfiler;
import dev.inferbench.run.JmhDriver;
import dev.inferbench.generate.GenerationProfiler;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.Optional;
import java.util.SortedSet;

/**
 * The JMH options of a run: the user's command line as given, plus benchmarks.properties for whatever the command
 * line leaves unsaid, plus what inferbench always adds (the samples/s profiler, a result file in the run folder).
 */
public final class JmhOptions {
    private static final Set<String> FIXED_ITERATIONS = Set.of(BenchmarkNames.COLD_START, BenchmarkNames.SERVING,
            BenchmarkNames.GENERATION_LOAD);

    private JmhOptions() {
    }

    public static OptionsBuilder options(CommandLineOptions cmd, BenchConfig config) throws BenchException {
        OptionsBuilder b = new OptionsBuilder();
        b.parent(cmd);
        if (cmd.getIncludes().isEmpty()) {
            config.get("run.include").ifPresent(b::include);
        }
        if (!cmd.getForkCount().hasValue()) {
            config.getInt("run.forks").ifPresent(b::forks);
        }
        List<String> includes = cmd.getIncludes().isEmpty()
                ? config.get("run.include").map(List::of).orElse(List.of()) : cmd.getIncludes();
        if (!singleShotOnly(includes, cmd.getExcludes())) {
            if (!cmd.getWarmupIterations().hasValue()) {
                config.getInt("run.warmupIterations").ifPresent(b::warmupIterations);
            }
            if (!cmd.getMeasurementIterations().hasValue()) {
                config.getInt("run.iterations").ifPresent(b::measurementIterations);
            }
            if (!cmd.getWarmupTime().hasValue()) {
                time(config, "run.warmupTime").ifPresent(b::warmupTime);
            }
            if (!cmd.getMeasurementTime().hasValue()) {
                time(config, "run.time").ifPresent(b::measurementTime);
            }
        }
        for (String param : config.defaultParamNames()) {
            if (!cmd.getParameter(param).hasValue()) {
                b.param(param, config.defaultParam(param).toArray(String[]::new));
            }
        }
        checkSampleInterval(cmd);
        checkPlant(cmd);
        b.addProfiler(SamplesProfiler.class);
        b.addProfiler(CallMeanProfiler.class);
        b.addProfiler(ServingProfiler.class);
        b.addProfiler(TrainingProfiler.class);
        b.addProfiler(GenerationProfiler.class);
        if (!"false".equals(System.getProperty(EXTRA_METRICS))) {
            b.addProfiler(ModelStatsProfiler.class);
            b.addProfiler(QualityProfiler.class);
            b.addProfiler(SetupProfiler.class);
            b.addProfiler(MemoryProfiler.class);
            b.addProfiler(MachineProfiler.class);
            b.addProfiler(CpuProfiler.class);
            b.addProfiler(CallBytesProfiler.class);
            b.addProfiler(IoProfiler.class);
            if (cmd.getProfilers().stream().noneMatch(p -> p.getKlass().equals("gc") || p.getKlass().endsWith("GCProfiler"))) {
                // Java heap bytes per call (gc.alloc.rate.norm) for every cell; it reads counters between iterations
                b.addProfiler(GCProfiler.class);
            }
        }
        config.file().ifPresent(file -> {
            // Forks inherit the launcher's -D flags only when -jvmArgs is not given: pass the config explicitly.
            List<String> append = new ArrayList<>(cmd.getJvmArgsAppend().orElse(List.of()));
            append.add("-D" + BenchConfig.CONFIG_PROPERTY + "=" + file.toAbsolutePath());
            b.jvmArgsAppend(append.toArray(String[]::new));
        });
        return b;
    }

    /**
     * The stub engine's plant ({@code -Dinferbench.stub=...} among the forks' JVM arguments) and the load generator's
     * ({@code -Dinferbench.heldArrivals=...}), read once before any fork.
     */
    private static void checkPlant(CommandLineOptions cmd) throws BenchException {
        String flag = "-D" + Plant.PROPERTY + "=";
        String held = "-D" + HeldArrivals.PROPERTY + "=";
        String busy = "-D" + BusyNeighbour.PROPERTY + "=";
        String tails = "-D" + TailPlant.PROPERTY + "=";
        for (String a : jvmArgs(cmd)) {
            if (a.startsWith(tails)) {
                TailPlant.parse(a.substring(tails.length()));
            } else if (a.startsWith(busy)) {
                BusyNeighbour.parse(a.substring(busy.length()));
            } else if (a.startsWith(flag)) {
                Plant.parse(a.substring(flag.length()));
            } else if (a.startsWith(held)) {
                HeldArrivals.parse(a.substring(held.length()));
            }
        }
    }

    private static List<String> jvmArgs(CommandLineOptions cmd) {
        List<String> args = new ArrayList<>(cmd.getJvmArgs().orElse(List.of()));
        args.addAll(cmd.getJvmArgsAppend().orElse(List.of()));
        args.addAll(cmd.getJvmArgsPrepend().orElse(List.of()));
        return args;
    }

    /**
     * The memory sampler's interval ({@code -Dinferbench.rssSampleMs=N} among the forks' JVM arguments) is checked
     * here, once, before any fork: the fork's profiler has no way to stop a run with one line.
     */
    private static void checkSampleInterval(CommandLineOptions cmd) throws BenchException {
        String flag = "-D" + MemoryProfiler.SAMPLE_PROPERTY + "=";
        for (String a : jvmArgs(cmd)) {
            if (a.startsWith(flag) && MemoryProfiler.sampleIntervalMs(a.substring(flag.length())) < 0) {
                throw new BenchException(a + " is not a whole number of milliseconds from 0 to "
                        + MemoryProfiler.MAX_SAMPLE_MS + "; expected e.g. -jvmArgsAppend " + flag + "20 (0: read the"
                        + " resident set only at each measured iteration's start and end)");
            }
        }
    }

    /**
     * True when every benchmark the run selects fixes its iterations by annotation: ColdStartBenchmark (0 warmup and 1
     * measurement iteration: a second call in a JVM is no longer cold) and ServingBenchmark (a warmup and one measured
     * open-loop step per fork): the run.* iteration defaults are for
     * steady-state benchmarks and would override them. The patterns are resolved against JMH's benchmark list, so a
     * regex such as {@code ColdStart|Inference} that also selects a steady-state benchmark keeps the defaults. The
     * command line's own -wi/-i still win.
     */
    public static boolean singleShotOnly(List<String> includes, List<String> excludes) {
        if (includes.isEmpty()) {
            return false; // JMH runs every benchmark
        }
        SortedSet<BenchmarkListEntry> selected;
        try {
            selected = JmhDriver.select(includes, excludes);
        } catch (RuntimeException noBenchmarkList) {
            return false; // the run itself reports that no benchmark matches
        }
        return !selected.isEmpty() && selected.stream().allMatch(b -> FIXED_ITERATIONS.contains(b.getUserClassQName()));
    }

    public static ResultFormatType resultFormat(CommandLineOptions cmd) {
        return cmd.getResultFormat().orElse(ResultFormatType.JSON);
    }

    /**
     * {@code java -Dinferbench.extraMetrics=false -jar ...}: time and samples/s only, none of the memory, setup, model,
     * quality and gc profilers. A diagnostic switch: run a cell with and without to see that they do not change the
     * latency they sit next to (they read counters between iterations, never during the timed calls).
     */
    static final String EXTRA_METRICS = "inferbench.extraMetrics";

    public static Path resultsRoot(BenchConfig config) {
        return Path.of(config.get("run.resultsDir").orElse("results"));
    }

    private static Optional<TimeValue> time(BenchConfig config, String key) throws BenchException {
        Optional<String> v = config.get(key);
        if (v.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(TimeValue.fromString(v.get()));
        } catch (IllegalArgumentException e) {
            throw new BenchException(key + "='" + v.get() + "' in " + config.source()
                    + " is not a duration; expected e.g. 500ms, 5s, 1m", e);
        }
    }
}

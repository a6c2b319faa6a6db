package dev.inferbench.prepare;

import java.util.TreeSet;
import java.util.Set;
import java.util.SortedSet;
import dev.inferbench.run.Plan;
import dev.inferbench.run.Shard;
import org.openjdk.jmh.runner.Defaults;
import java.io.PrintStream;
import java.nio.file.Path;
import dev.inferbench.run.JmhDriver;
import dev.inferbench.cell.Cell;
import dev.inferbench.BenchException;
import dev.inferbench.config.BenchConfig;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.options.Options;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A new run's plan: expands the options into the cells JMH itself would run (benchmark x mode x every combination of
 * parameter values, the command line's {@code -p} over the annotations' defaults, or the cells of a {@code --cells}
 * file), prepares what they need ({@link MatrixCheck}) and asks the {@link SkipRule}s which of them cannot run here.
 */
public final class Planner {
    private Planner() {
    }

    /**
     * The plan of a new run, in one call: parameter names checked, cells expanded, their models and data made ready,
     * the cells that cannot run here set apart.
     *
     * @param cellsFile {@code --cells FILE}: an explicit list of configurations ({@link CellList}), or null
     */
    public static Plan plan(JmhArgs.Parsed args, Options options, BenchConfig config, Shard shard, Path cellsFile,
                            PrintStream progress) throws BenchException {
        checkParamNames(args.paramNames(), "-p");
        checkParamNames(config.defaultParamNames(), "param.* in " + config.file().map(Path::toString)
                .orElse(BenchConfig.FILE_NAME));
        checkParamsApply(args.paramNames(), options);
        List<Cell> cells = cellsFile == null ? cells(options)
                : CellList.cells(CellList.read(cellsFile), options, cellsFile.toString());
        MatrixCheck.prepare(cells, config, progress);
        return Plan.of(args.given(), config.file().map(p -> p.toAbsolutePath().toString()).orElse(null),
                options.getForkCount().orElse(Defaults.MEASUREMENT_FORKS), settings(options), shard, cells,
                skipped(cells, config, SkipRules.ALL));
    }

    private static Plan.Settings settings(Options o) {
        return new Plan.Settings(o.getWarmupIterations().orElse(null),
                o.getWarmupTime().hasValue() ? o.getWarmupTime().get().toString() : null,
                o.getMeasurementIterations().orElse(null),
                o.getMeasurementTime().hasValue() ? o.getMeasurementTime().get().toString() : null);
    }

    static List<Cell> cells(Options options) throws BenchException {
        List<Cell> cells = new ArrayList<>();
        for (BenchmarkListEntry entry : JmhDriver.benchmarks(options)) {
            Map<String, List<String>> values = new TreeMap<>();
            Map<String, String[]> declared = entry.getParams().orElse(Map.of());
            for (Map.Entry<String, String[]> p : new TreeMap<>(declared).entrySet()) {
                Collection<String> given = options.getParameter(p.getKey()).orElse(Arrays.asList(p.getValue()));
                if (given.isEmpty()) {
                    throw new BenchException("parameter '" + p.getKey() + "' of " + entry.getUsername()
                            + " has no values; expected -p " + p.getKey() + "=...");
                }
                values.put(p.getKey(), List.copyOf(given));
            }
            for (Mode mode : modes(options, entry)) {
                for (Map<String, String> combination : combinations(values)) {
                    cells.add(new Cell(entry.getUsername(), mode.shortLabel(), combination));
                }
            }
        }
        return cells;
    }

    /**
     * Refuses a parameter that no benchmark of the jar declares ({@code -p batchsize=4}): JMH ignores it, and the run
     * would measure the defaults under the belief that it measured what was asked.
     *
     * @param where where the names come from, for the message: "-p", "param.* in benchmarks.properties"
     */
    static void checkParamNames(Collection<String> names, String where) throws BenchException {
        Set<String> declared = new TreeSet<>();
        for (BenchmarkListEntry e : JmhDriver.select(List.of(".*"), List.of())) {
            declared.addAll(e.getParams().orElse(Map.of()).keySet());
        }
        for (String name : names) {
            if (!declared.contains(name)) {
                throw new BenchException("unknown parameter '" + name + "' (" + where + "); expected one of: "
                        + String.join(", ", declared));
            }
        }
    }

    /**
     * Refuses a {@code -p} that only benchmarks other than those selected take ({@code GenerationBenchmark -p
     * precision=fp16}): JMH would drop it and the run would report fp32 figures under an fp16 command line.
     */
    static void checkParamsApply(Collection<String> names, Options options) throws BenchException {
        SortedSet<BenchmarkListEntry> selected = JmhDriver.benchmarks(options);
        for (String name : names) {
            if (selected.stream().noneMatch(e -> e.getParams().orElse(Map.of()).containsKey(name))) {
                Set<String> takes = new TreeSet<>();
                selected.forEach(e -> takes.addAll(e.getParams().orElse(Map.of()).keySet()));
                Set<String> others = new TreeSet<>();
                for (BenchmarkListEntry e : JmhDriver.select(List.of(".*"), List.of())) {
                    if (e.getParams().orElse(Map.of()).containsKey(name)) {
                        others.add(e.getUsername().replaceAll(".*\\.(\\w+Benchmark)\\..*", "$1"));
                    }
                }
                String what = selected.size() == 1 ? selected.first().getUsername().replaceAll(".*\\.(\\w+\\.\\w+)$", "$1")
                        : "the " + selected.size() + " benchmarks selected";
                throw new BenchException("parameter '" + name + "' does not apply to " + what + " (only "
                        + String.join(", ", others) + " take" + (others.size() == 1 ? "s" : "") + " it); expected one of: "
                        + String.join(", ", takes));
            }
        }
    }

    public static List<Plan.Skipped> skipped(List<Cell> cells, BenchConfig config, List<SkipRule> rules) throws BenchException {
        List<Plan.Skipped> out = new ArrayList<>();
        for (Cell cell : cells) {
            Optional<String> why = SkipRules.reason(cell, config, rules);
            if (why.isPresent()) {
                out.add(new Plan.Skipped(cell, why.get()));
            }
        }
        return out;
    }

    private static List<Mode> modes(Options options, BenchmarkListEntry entry) {
        Collection<Mode> given = options.getBenchModes();
        if (given.isEmpty()) {
            return List.of(entry.getMode());
        }
        if (given.contains(Mode.All)) {
            return Arrays.stream(Mode.values()).filter(m -> m != Mode.All).toList();
        }
        return List.copyOf(given);
    }

    /** The cross product, the first parameter (by name) varying slowest, as JMH orders its own cells. */
    private static List<Map<String, String>> combinations(Map<String, List<String>> values) {
        List<Map<String, String>> out = new ArrayList<>();
        out.add(new LinkedHashMap<>());
        for (Map.Entry<String, List<String>> p : values.entrySet()) {
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> partial : out) {
                for (String v : p.getValue()) {
                    Map<String, String> m = new LinkedHashMap<>(partial);
                    m.put(p.getKey(), v);
                    next.add(m);
                }
            }
            out = next;
        }
        return out;
    }
}

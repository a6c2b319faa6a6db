package dev.inferbench.profile;

import dev.inferbench.BenchException;
import dev.inferbench.run.Cell;
import dev.inferbench.run.ForkHook;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Profiles every fork with async-profiler into {@code flames/<cell-id>/fork-N/} of the run folder, turns each
 * fork's JFR recording into collapsed stacks and HTML flame graphs per event (forward and reverse), and after the
 * last fork of a cell merges its forks into {@code flames/<cell-id>/merged/}.
 */
public final class FlameHook implements ForkHook {
    public static final String FOLDER = "flames";
    static final String MERGED = "merged";
    private final FlameSettings settings;
    private final Path library;
    private final Path flames;
    private final List<String> jvmArgs;

    /** @param jvmArgs extra JVM options for the profiled forks (e.g. where ORT's library is kept) */
    public FlameHook(FlameSettings settings, Path library, Path runDir, List<String> jvmArgs) {
        this.settings = settings;
        this.library = library;
        this.flames = runDir.resolve(FOLDER);
        this.jvmArgs = List.copyOf(jvmArgs);
    }

    /** {@code flames/<cell-id>/fork-N}: where fork N of a cell writes its profiles. */
    public static Path forkFolder(Path flames, String cellId, int fork) {
        return flames.resolve(cellId).resolve("fork-" + fork);
    }

    @Override
    public void beforeFork(Cell cell, int fork, Path forkDir, ChainedOptionsBuilder options) throws BenchException {
        Path dir = forkFolder(flames, cell.id(), fork);
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new BenchException("cannot write flame graphs to " + dir + ": " + e.getMessage()
                    + "; expected a writable run folder", e);
        }
        options.addProfiler("async", settings.asyncOptions(library, dir));
        if (!jvmArgs.isEmpty()) {
            options.jvmArgsAppend(jvmArgs.toArray(String[]::new));
        }
    }

    @Override
    public void afterFork(Cell cell, int fork, Path forkDir, boolean landed) throws BenchException {
        Path dir = forkFolder(flames, cell.id(), fork);
        try {
            for (Path jfr : jfrFiles(dir)) {
                for (String event : settings.events()) {
                    Path collapsed = dir.resolve(event + ".collapsed");
                    FlameGraphs.jfrToCollapsed(jfr, event, collapsed);
                    render(List.of(collapsed), dir, event, cell.label() + " fork " + fork);
                }
            }
        } catch (IOException | RuntimeException e) {
            throw new BenchException("cannot convert the profile of " + cell.label() + " fork " + fork + " in " + dir
                    + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void afterCell(Cell cell, Path cellDir) throws BenchException {
        merge(flames.resolve(cell.id()), cell.label());
    }

    /** Sums the collapsed stacks of every fork of a cell into {@code merged/}, one set per event. */
    public static void merge(Path cellFlames, String title) throws BenchException {
        try {
            List<Path> forks = new ArrayList<>();
            try (Stream<Path> s = Files.list(cellFlames)) {
                s.filter(p -> p.getFileName().toString().startsWith("fork-")).sorted().forEach(forks::add);
            }
            Path merged = cellFlames.resolve(MERGED);
            for (String event : eventsIn(forks)) {
                List<Path> inputs = forks.stream().map(f -> f.resolve(event + ".collapsed")).filter(Files::isRegularFile).toList();
                Files.createDirectories(merged);
                FlameGraphs.mergeCollapsed(inputs, merged.resolve(event + ".collapsed"));
                render(inputs, merged, event, title + " (" + inputs.size() + " forks)");
            }
        } catch (IOException | UncheckedIOException e) {
            throw new BenchException("cannot merge the flame graphs in " + cellFlames + ": " + e.getMessage(), e);
        }
    }

    private static void render(List<Path> collapsed, Path dir, String event, String title) throws IOException {
        FlameGraphs.html(collapsed, dir.resolve(event + "-forward.html"), title + " " + event, false);
        FlameGraphs.html(collapsed, dir.resolve(event + "-reverse.html"), title + " " + event + " (reverse)", true);
    }

    private static List<String> eventsIn(List<Path> forks) throws IOException {
        List<String> events = new ArrayList<>();
        for (Path fork : forks) {
            for (Path c : files(fork, ".collapsed")) {
                String e = c.getFileName().toString().replace(".collapsed", "");
                if (!events.contains(e)) {
                    events.add(e);
                }
            }
        }
        return events;
    }

    /** JMH writes the recording into a subfolder named after the benchmark and its params. */
    private static List<Path> jfrFiles(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".jfr")).sorted().toList();
        }
    }

    private static List<Path> files(Path dir, String suffix) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
        }
    }
}

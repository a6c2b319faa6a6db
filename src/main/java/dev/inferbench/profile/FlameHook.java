package dev.inferbench.profile;

import dev.inferbench.AtomicFile;
import java.nio.file.StandardCopyOption;
import dev.inferbench.results.RunLayout;
import dev.inferbench.BenchException;
import dev.inferbench.cell.Cell;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.variant.Variants;
import dev.inferbench.run.ForkHook;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.Options;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@code --flame}: async-profiler in every fork, one recording per fork kept in
 * {@code flames/<cell>/fork-N/profile.jfr} with its flame graphs beside it (forward and reverse HTML per event),
 * and per cell the graphs of all forks merged ({@code flames/<cell>/merged-<event>-forward.html}). JMH's own
 * {@code -prof async} writes every fork of a cell to the same file; running one fork at a time keeps each.
 * ONNX Runtime's native library is kept on disk for the run, so its frames keep their (few exported) names.
 */
public final class FlameHook implements ForkHook {
    /** The run folder's subfolder for flame graphs, one folder per cell id. */
    private static final String ENGINE_FILE = "profiler.properties";
    /** Operators and modules the console shows per fork; ops-check.txt has them all. */
    private static final int OPS_TOP = 5;

    private final Path flamesDir;
    private final FlameSettings settings;
    private final Path profilerLibrary;
    private final List<String> jvmArgsAppend;
    private final PrintStream console;
    /** For the model file of a cell whose operators are joined in ({@code ops}); null without. */
    private final BenchConfig config;

    private FlameHook(Path flamesDir, FlameSettings settings, Path profilerLibrary, List<String> jvmArgsAppend,
                      PrintStream console, BenchConfig config) {
        this.config = config;
        this.flamesDir = flamesDir;
        this.settings = settings;
        this.profilerLibrary = profilerLibrary;
        this.jvmArgsAppend = jvmArgsAppend;
        this.console = console;
    }

    /** async-profiler's library for this machine, kept in the user's cache. */
    public static Path profilerLibrary() throws BenchException {
        return NativeLibrary.extract(NativeLibrary.platform() + "/libasyncProfiler.so",
                NativeLibrary.cacheRoot().resolve("async-profiler"));
    }

    /** Extracts the libraries (once per machine) and checks the output folder before any fork starts. */
    public static FlameHook create(Path runDir, FlameSettings settings, Options base, BenchConfig config,
                                   PrintStream console) throws BenchException {
        Path lib = profilerLibrary();
        List<String> append = keepOrtLibraries(base);
        Path flames = RunLayout.of(runDir).flames();
        try {
            Files.createDirectories(flames);
        } catch (IOException e) {
            throw new BenchException("cannot create " + flames + " for the flame graphs: " + e.getMessage()
                    + "; expected a writable run folder", e);
        }
        console.println("[inferbench] flame graphs of " + String.join(" + ", settings.events()) + " for every fork in "
                + flames + " (async-profiler " + lib + ")");
        if (settings.ops()) {
            console.println("[inferbench] ops: ONNX Runtime's session profile is recorded in every fork and its "
                    + "operators joined into the " + settings.timeEvent() + " graphs; it records every kernel of every "
                    + "call, so these forks' timings are not those of a plain run");
        }
        return new FlameHook(flames, settings, lib, append, console, config);
    }

    /**
     * The forks' JVM arguments with ONNX Runtime's libraries loaded from our cache instead of a temporary copy that
     * ORT deletes, so the profiler can still name their frames. Each build's libraries get a folder of their own, so
     * two ORT versions compared in turns on one machine never load each other's.
     */
    static List<String> keepOrtLibraries(Options base) throws BenchException {
        String platform = NativeLibrary.platform();
        Path ortDir = NativeLibrary.extractTogether(List.of("ai/onnxruntime/native/" + platform + "/libonnxruntime.so",
                "ai/onnxruntime/native/" + platform + "/libonnxruntime4j_jni.so"),
                NativeLibrary.cacheRoot().resolve("onnxruntime"));
        List<String> append = new ArrayList<>(base.getJvmArgsAppend().orElse(List.of()));
        append.add("-Donnxruntime.native.path=" + ortDir);
        return append;
    }

    private Path dir(Cell cell, int fork) {
        return flamesDir.resolve(cell.id()).resolve("fork-" + fork);
    }

    @Override
    public void beforeFork(Cell cell, int fork, Path forkDir, ChainedOptionsBuilder options) throws BenchException {
        Path dir = dir(cell, fork);
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new BenchException("cannot create " + dir + ": " + e.getMessage(), e);
        }
        options.addProfiler(ForkAsync.class, settings.jmhOptions(profilerLibrary, dir.resolve("jmh")));
        List<String> append = new ArrayList<>(jvmArgsAppend);
        if (settings.ops()) {
            append.add(OperatorFlame.forkArgument(dir));
        }
        options.jvmArgsAppend(append.toArray(String[]::new));
    }

    /** JMH names the recording it asked for under the fork's jmh/ folder; {@link #afterFork} moves it to profile.jfr. */
    @Override
    public String logLine(String line) {
        String s = line.strip();
        int at = s.indexOf(flamesDir.toString());
        int jmh = at < 0 ? -1 : s.indexOf("/jmh/", at);
        if (!s.endsWith(".jfr") || jmh < 0) {
            return line;
        }
        int start = line.indexOf(s);
        return line.substring(0, start) + s.substring(0, jmh) + "/profile.jfr" + line.substring(start + s.length());
    }

    @Override
    public void afterFork(Cell cell, int fork, Path forkDir, boolean landed) throws BenchException {
        Path dir = dir(cell, fork);
        try {
            Path jfr = dir.resolve("profile.jfr");
            Path jmh = dir.resolve("jmh");
            try (Stream<Path> s = Files.isDirectory(jmh) ? Files.walk(jmh) : Stream.empty()) {
                for (Path f : s.filter(p -> p.toString().endsWith(".jfr")).toList()) {
                    Files.move(f, jfr, StandardCopyOption.REPLACE_EXISTING);
                }
            }
            deleteTree(jmh);
            if (!landed || !Files.isRegularFile(jfr)) {
                return;
            }
            String engine = FlameGraphs.engine(jfr);
            for (String event : settings.events()) {
                FlameGraphs.fromRecording(jfr, converterEvent(event), cell.label() + " fork " + fork + ": " + what(event));
            }
            if (settings.ops()) {
                joinOperators(cell, fork, dir, jfr);
            }
            AtomicFile.write(dir.resolve(ENGINE_FILE), ("events=" + String.join(",", settings.events())
                    + "\nengine=" + engine + "\n" + "engine.meaning=" + meaning(engine) + "\n")
                    .getBytes(StandardCharsets.UTF_8));
            if (settings.timeEvent() != null && fork == 1) {
                // once per cell, as its first fork lands: the closing lines name each cell's merged graphs
                console.println("[inferbench] flame graphs in " + dir + "; " + settings.timeEvent() + " samples taken by "
                        + engine + " (" + meaning(engine) + ")");
            }
        } catch (IOException e) {
            throw new BenchException("cannot keep the flame graphs of " + cell.label() + " fork " + fork + ": " + e, e);
        }
    }

    /** The fork's time graph redrawn with ORT's operators inside ({@link OperatorFlame}), and its check printed. */
    private void joinOperators(Cell cell, int fork, Path dir, Path jfr) throws BenchException {
        String event = converterEvent(settings.timeEvent());
        StringBuilder why = new StringBuilder();
        OperatorShares shares = OperatorFlame.write(dir, jfr, event, cell.label() + " fork " + fork + ": " + event
                + " with ONNX Runtime's operators", modelFile(cell), why);
        if (shares == null) {
            console.println("[inferbench] no operator frames in " + cell.label() + " fork " + fork + ": " + why);
            return;
        }
        console.println("[inferbench] operator frames joined into " + dir.resolve(event + "-forward.html")
                + "; their shares beside ORT's kernel time (" + OperatorFlame.CHECK + "):");
        shares.print(console, OPS_TOP);
    }

    private Path modelFile(Cell cell) {
        try {
            CellSpec spec = CellSpec.of(cell.params(), config);
            return Variants.file(spec.modelFile(), spec.precision());
        } catch (BenchException | RuntimeException notAModelCell) {
            return null;
        }
    }

    @Override
    public void afterCell(Cell cell, Path cellDir) throws BenchException {
        Path dir = flamesDir.resolve(cell.id());
        for (String event : settings.events()) {
            String e = converterEvent(event);
            List<Path> forks;
            try (Stream<Path> s = Files.isDirectory(dir) ? Files.list(dir) : Stream.empty()) {
                forks = s.map(f -> f.resolve(e + ".collapsed")).filter(Files::isRegularFile)
                        .sorted(Comparator.naturalOrder()).toList();
            } catch (IOException ex) {
                throw new BenchException("cannot list " + dir + ": " + ex.getMessage(), ex);
            }
            if (forks.isEmpty()) {
                continue;
            }
            String title = cell.label() + ": " + what(event) + ", " + forks.size() + " forks merged";
            write(dir.resolve("merged-" + e + "-forward.html"), out -> FlameGraphs.merge(forks, title, false, out));
            write(dir.resolve("merged-" + e + "-reverse.html"), out -> FlameGraphs.merge(forks, title + " (reverse)", true, out));
            write(dir.resolve("merged-" + e + ".collapsed"), out -> {
                for (Path f : forks) {
                    try {
                        out.write(Files.readAllBytes(f));
                    } catch (IOException ex) {
                        throw new BenchException("cannot read " + f + ": " + ex.getMessage(), ex);
                    }
                }
            });
        }
    }

    /** An event as a graph's title names it. */
    static String what(String event) {
        return event.equals(FlameSettings.NATIVEMEM) ? "native memory allocated in the measured iterations and not freed by their end (bytes)" : event;
    }

    /** The converter's name for a recorded event: itimer and ctimer samples are CPU samples. */
    static String converterEvent(String event) {
        return switch (event) {
            case "itimer", "ctimer" -> "cpu";
            default -> event;
        };
    }

    /** What the engine async-profiler used for time samples means for the user. */
    static String meaning(String engine) {
        return switch (engine) {
            case "perf_events" -> "Linux perf events: precise CPU samples, kernel frames included";
            case "ctimer" -> "the kernel forbids perf events here (perf_event_paranoid or a container), so CPU time is "
                    + "sampled by a POSIX timer: no kernel frames";
            case "itimer" -> "setitimer CPU sampling: coarse, one process-wide timer, no kernel frames";
            case "wall" -> "wall-clock sampling of all threads, running or not";
            default -> "as reported by async-profiler";
        };
    }

    private interface Writer {
        void write(OutputStream out) throws BenchException, IOException;
    }

    private static void write(Path file, Writer writer) throws BenchException {
        try {
            AtomicFile.write(file, writer::write);
        } catch (IOException e) {
            throw new BenchException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}

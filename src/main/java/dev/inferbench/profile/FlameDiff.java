package dev.inferbench.profile;

import dev.inferbench.AtomicFile;
import dev.inferbench.results.ReceivedFolder;
import dev.inferbench.BenchException;
import dev.inferbench.results.RunLayout;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Two runs' flame graphs set side by side: for every cell flame-graphed in both ({@code --flame}), the differential
 * flame graph of each event ({@link FlameGraphs#diff}: B's stacks, frames red where B spends more than A, blue where
 * less); the same for ORT's operator profile ({@link OpProfileDiff}); and each common cell's latency B over A
 * ({@link LatencyRatio}).
 */
public final class FlameDiff {

    private FlameDiff() {
    }

    /**
     * Writes the graphs under {@code target} (default RUN_B/flames-diff) and prints each file and what only one run
     * has.
     *
     * @param runA the run folder A, as typed
     * @param runB the run folder B, as typed
     * @return whether something was compared: a graph written or a common cell's latency
     */
    public static boolean diff(String runA, String runB, Path target, PrintStream out) throws BenchException {
        ReceivedFolder.refuseLinks(Path.of(runA));
        ReceivedFolder.refuseLinks(Path.of(runB));
        Path a = flames(Path.of(runA));
        Path b = flames(Path.of(runB));
        Path dir = target != null ? target : Path.of(runB).resolve("flames-diff");
        Set<String> cellsA = cells(a);
        Set<String> cellsB = cells(b);
        int written = 0;
        for (String cell : cellsB) {
            if (!cellsA.contains(cell)) {
                out.println("only in " + runB + ": " + cell);
                continue;
            }
            for (String file : merged(b.resolve(cell))) {
                Path base = a.resolve(cell).resolve(file);
                if (!Files.isRegularFile(base)) {
                    continue;
                }
                String event = file.substring("merged-".length(), file.length() - ".collapsed".length());
                Path html = dir.resolve(cell).resolve("diff-" + event + ".html");
                write(html, stream -> FlameGraphs.diff(base, b.resolve(cell).resolve(file),
                        cell + ": " + event + ", " + runB + " vs " + runA, stream));
                out.println(html);
                written++;
            }
        }
        for (String cell : cellsA) {
            if (!cellsB.contains(cell)) {
                out.println("only in " + runA + ": " + cell);
            }
        }
        written += OpProfileDiff.diff(Path.of(runA), Path.of(runB), dir, out);
        List<String> latency = LatencyRatio.lines(Path.of(runA), Path.of(runB));
        latency.forEach(out::println);
        if (!latency.isEmpty()) {
            write(dir.resolve("latency.txt"), stream -> {
                try {
                    stream.write((String.join("\n", latency) + "\n").getBytes(StandardCharsets.UTF_8));
                } catch (IOException e) {
                    throw new BenchException("cannot write latency.txt: " + e.getMessage(), e);
                }
            });
        }
        out.println("inferbench: " + written + " differential flame graph" + (written == 1 ? "" : "s") + " in " + dir
                + " (red: hotter in " + runB + ", blue: colder)");
        return written > 0 || !latency.isEmpty();
    }

    private static Path flames(Path run) throws BenchException {
        Path f = run.resolve(RunLayout.FLAMES);
        if (!Files.isDirectory(run) || !Files.isRegularFile(RunLayout.of(run).result()) && !Files.isDirectory(f)
                && !Files.isDirectory(run.resolve(RunLayout.OP_PROFILE))) {
            throw new BenchException(run + " has no flame graphs, operator profile or results; expected a run folder"
                    + " (made with --flame for flame graphs)");
        }
        return f;
    }

    private static Set<String> cells(Path flames) throws BenchException {
        if (!Files.isDirectory(flames)) {
            return Set.of();
        }
        try (Stream<Path> s = Files.list(flames)) {
            return new TreeSet<>(s.filter(Files::isDirectory).map(p -> p.getFileName().toString()).toList());
        } catch (IOException e) {
            throw new BenchException("cannot list " + flames + ": " + e.getMessage(), e);
        }
    }

    private static List<String> merged(Path cellDir) throws BenchException {
        try (Stream<Path> s = Files.list(cellDir)) {
            return s.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith("merged-") && n.endsWith(".collapsed")).sorted().toList();
        } catch (IOException e) {
            throw new BenchException("cannot list " + cellDir + ": " + e.getMessage(), e);
        }
    }

    private static void write(Path file, AtomicFile.Body<BenchException> body) throws BenchException {
        try {
            Files.createDirectories(file.getParent());
            AtomicFile.write(file, body);
        } catch (IOException e) {
            throw new BenchException("cannot write " + file + ": " + e.getMessage()
                    + "; expected a writable folder (-o DIR)", e);
        }
    }
}

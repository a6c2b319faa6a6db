package dev.inferbench.profile;

import dev.inferbench.BenchException;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Differential flame graphs between two runs, cell by cell: for each cell profiled in both, each event's merged
 * stacks (and the ORT operator profile) through the converter's diff, written under
 * {@code <run B>/flame-diff/<run A's name>/<cell-id>/}. Cells profiled in one run only are named.
 */
public final class FlameDiff {
    public static final String FOLDER = "flame-diff";

    private FlameDiff() {
    }

    /** @return the number of differential flame graphs written */
    public static int diff(Path runA, Path runB, PrintStream out) throws BenchException {
        Set<String> a = profiledCells(runA);
        Set<String> b = profiledCells(runB);
        Path target = runB.resolve(FOLDER).resolve(runA.toAbsolutePath().normalize().getFileName().toString());
        int written = 0;
        try {
            for (String cell : new TreeSet<>(a)) {
                if (!b.contains(cell)) {
                    out.println("only in " + runA + ": " + cell);
                    continue;
                }
                for (String[] pair : pairs(runA, runB, cell)) {
                    Path before = Path.of(pair[1]);
                    Path after = Path.of(pair[2]);
                    Path html = target.resolve(cell).resolve(pair[0] + "-diff.html");
                    Files.createDirectories(html.getParent());
                    FlameGraphs.diff(before, after, html, cell + " " + pair[0] + ": " + runB.getFileName()
                            + " vs " + runA.getFileName());
                    out.println(cell + " " + pair[0] + ": " + html);
                    written++;
                }
            }
            for (String cell : new TreeSet<>(b)) {
                if (!a.contains(cell)) {
                    out.println("only in " + runB + ": " + cell);
                }
            }
        } catch (IOException e) {
            throw new BenchException("cannot write the differential flame graphs to " + target + ": " + e.getMessage(), e);
        }
        return written;
    }

    /** {name, before, after} for every profile both runs have of {@code cell}. */
    private static List<String[]> pairs(Path runA, Path runB, String cell) throws IOException {
        List<String[]> pairs = new ArrayList<>();
        Path mergedA = runA.resolve(FlameHook.FOLDER).resolve(cell).resolve(FlameHook.MERGED);
        Path mergedB = runB.resolve(FlameHook.FOLDER).resolve(cell).resolve(FlameHook.MERGED);
        for (Path c : list(mergedA, ".collapsed")) {
            Path other = mergedB.resolve(c.getFileName());
            if (Files.isRegularFile(other)) {
                pairs.add(new String[]{c.getFileName().toString().replace(".collapsed", ""), c.toString(), other.toString()});
            }
        }
        Path opsA = runA.resolve(OpProfilePass.FOLDER).resolve(cell).resolve("ops.collapsed");
        Path opsB = runB.resolve(OpProfilePass.FOLDER).resolve(cell).resolve("ops.collapsed");
        if (Files.isRegularFile(opsA) && Files.isRegularFile(opsB)) {
            pairs.add(new String[]{"ops", opsA.toString(), opsB.toString()});
        }
        return pairs;
    }

    /** Cells with a merged flame graph or an operator profile in {@code run}. */
    static Set<String> profiledCells(Path run) throws BenchException {
        if (!Files.isDirectory(run)) {
            throw new BenchException("run folder not found: " + run + "; expected a folder under results/");
        }
        Set<String> cells = new TreeSet<>();
        try {
            for (String folder : List.of(FlameHook.FOLDER, OpProfilePass.FOLDER)) {
                Path dir = run.resolve(folder);
                if (Files.isDirectory(dir)) {
                    try (Stream<Path> s = Files.list(dir)) {
                        s.filter(Files::isDirectory).forEach(p -> cells.add(p.getFileName().toString()));
                    }
                }
            }
        } catch (IOException e) {
            throw new BenchException("cannot read " + run + ": " + e.getMessage(), e);
        }
        return cells;
    }

    private static List<Path> list(Path dir, String suffix) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
        }
    }
}

package dev.inferbench.profile;

import dev.inferbench.AtomicFile;
import dev.inferbench.results.RunLayout;
import dev.inferbench.BenchException;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The differential operator flame graph of each {@code ort} cell whose ORT profile both runs hold
 * ({@code op-profile/<cell-id>/ops.collapsed}): B's operators, red where B spends more than A, blue where less.
 */
public final class OpProfileDiff {
    private OpProfileDiff() {
    }

    /** Writes {@code <dir>/<cell-id>/diff-ops.html} per common cell, names the others; returns how many it wrote. */
    public static int diff(Path runA, Path runB, Path dir, PrintStream out) throws BenchException {
        Set<String> a = cells(runA);
        Set<String> b = cells(runB);
        int written = 0;
        for (String cell : b) {
            if (!a.contains(cell)) {
                out.println("operator profile only in " + runB + ": " + cell);
                continue;
            }
            Path html = dir.resolve(cell).resolve("diff-ops.html");
            try {
                Files.createDirectories(html.getParent());
                AtomicFile.write(html, os -> FlameGraphs.diff(collapsed(runA, cell), collapsed(runB, cell),
                        cell + ": ORT operators, " + runB.getFileName() + " vs " + runA.getFileName(), os));
            } catch (IOException e) {
                throw new BenchException("cannot write " + html + ": " + e.getMessage(), e);
            }
            out.println(html);
            written++;
        }
        for (String cell : a) {
            if (!b.contains(cell)) {
                out.println("operator profile only in " + runA + ": " + cell);
            }
        }
        return written;
    }

    private static Path collapsed(Path run, String cell) {
        return run.resolve(RunLayout.OP_PROFILE).resolve(cell).resolve("ops.collapsed");
    }

    private static Set<String> cells(Path run) throws BenchException {
        Path dir = run.resolve(RunLayout.OP_PROFILE);
        if (!Files.isDirectory(dir)) {
            return Set.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return new TreeSet<>(s.filter(p -> Files.isRegularFile(p.resolve("ops.collapsed")))
                    .map(p -> p.getFileName().toString()).toList());
        } catch (IOException e) {
            throw new BenchException("cannot list " + dir + ": " + e.getMessage(), e);
        }
    }
}

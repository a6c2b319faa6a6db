package dev.inferbench.cli;

import java.nio.charset.StandardCharsets;
import dev.inferbench.results.RunLayout;
import dev.inferbench.BenchException;
import dev.inferbench.profile.FlameGraphs;
import dev.inferbench.profile.LatencyRatio;
import dev.inferbench.profile.OpProfileDiff;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * {@code flame diff RUN_A RUN_B [-o DIR]}: for every cell flame-graphed in both runs ({@code --flame}), the
 * differential flame graph of each event: B's stacks, frames red where B spends more than A, blue where less; the
 * same for ORT's operator profile ({@code --op-profile}); and each common cell's latency B over A (with A run
 * without --flame and B with it, the profiler's overhead).
 */
final class FlameCommand implements Subcommand {

    @Override
    public String summary() {
        return "flame diff RUN_A RUN_B [-o DIR]: differential flame graphs (and ORT operator profiles) per cell, latency B/A";
    }

    @Override
    public String usage() {
        return USAGE_PREFIX + """
                flame diff RUN_A RUN_B [-o DIR]
                For every cell flame-graphed (--flame) in both runs, the differential flame graph of each event: B's
                stacks, red where B spends more than A, blue where less; the same for ORT's operator profiles
                (--op-profile); and each common cell's latency B/A.
                  RUN_A RUN_B   two run folders
                  -o DIR        where the graphs go (default: RUN_B/flames-diff)
                Exit 0 when something was compared, 1 when the runs have no cell in common, 2 bad input.
                """;
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws BenchException {
        List<String> rest = new ArrayList<>(args);
        Path target = null;
        int o = rest.indexOf("-o");
        if (o >= 0) {
            if (o + 1 >= rest.size()) {
                throw new BenchException("-o needs a folder; expected flame diff RUN_A RUN_B -o DIR");
            }
            target = Path.of(rest.remove(o + 1));
            rest.remove(o);
        }
        if (rest.size() != 3 || !rest.get(0).equals("diff")) {
            throw new BenchException("expected: flame diff RUN_A RUN_B [-o DIR]; got: flame " + String.join(" ", args));
        }
        Path a = flames(Path.of(rest.get(1)));
        Path b = flames(Path.of(rest.get(2)));
        Path dir = target != null ? target : Path.of(rest.get(2)).resolve("flames-diff");
        Set<String> cellsA = cells(a);
        Set<String> cellsB = cells(b);
        int written = 0;
        for (String cell : cellsB) {
            if (!cellsA.contains(cell)) {
                out.println("only in " + rest.get(2) + ": " + cell);
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
                        cell + ": " + event + ", " + rest.get(2) + " vs " + rest.get(1), stream));
                out.println(html);
                written++;
            }
        }
        for (String cell : cellsA) {
            if (!cellsB.contains(cell)) {
                out.println("only in " + rest.get(1) + ": " + cell);
            }
        }
        written += OpProfileDiff.diff(Path.of(rest.get(1)), Path.of(rest.get(2)), dir, out);
        List<String> latency = LatencyRatio.lines(Path.of(rest.get(1)), Path.of(rest.get(2)));
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
                + " (red: hotter in " + rest.get(2) + ", blue: colder)");
        return written > 0 || !latency.isEmpty() ? Main.OK : Main.CELLS_FAILED;
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

    private interface Body {
        void write(OutputStream out) throws BenchException;
    }

    private static void write(Path file, Body body) throws BenchException {
        try {
            Files.createDirectories(file.getParent());
            try (OutputStream out = Files.newOutputStream(file)) {
                body.write(out);
            }
        } catch (IOException e) {
            throw new BenchException("cannot write " + file + ": " + e.getMessage()
                    + "; expected a writable folder (-o DIR)", e);
        }
    }
}

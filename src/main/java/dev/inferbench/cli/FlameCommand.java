package dev.inferbench.cli;

import dev.inferbench.BenchException;
import dev.inferbench.profile.FlameGraphs;

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
 * differential flame graph of each event: B's stacks, frames red where B spends more than A, blue where less.
 */
final class FlameCommand implements Subcommand {

    @Override
    public String summary() {
        return "flame diff RUN_A RUN_B [-o DIR]: differential flame graphs of the cells both --flame runs profiled";
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
        out.println("inferbench: " + written + " differential flame graph" + (written == 1 ? "" : "s") + " in " + dir
                + " (red: hotter in " + rest.get(2) + ", blue: colder)");
        return written > 0 ? Main.OK : Main.CELLS_FAILED;
    }

    private static Path flames(Path run) throws BenchException {
        Path f = run.resolve("flames");
        if (!Files.isDirectory(f)) {
            throw new BenchException(run + " has no flame graphs (no flames/ folder); expected a run made with --flame");
        }
        return f;
    }

    private static Set<String> cells(Path flames) throws BenchException {
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

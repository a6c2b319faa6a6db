package dev.inferbench.profile;

import one.convert.Arguments;
import one.convert.FlameGraph;
import one.convert.JfrToFlame;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * async-profiler's converter (tools.profiler:jfr-converter) as inferbench uses it: one event of a JFR recording to
 * collapsed stacks, collapsed stacks (one file or many, merged) to HTML flame graphs forward and reverse, and the
 * differential flame graph of two profiles.
 */
public final class FlameGraphs {
    private FlameGraphs() {
    }

    /** The converter's flag that selects {@code event}'s samples in a JFR file. */
    static String jfrFlag(String event) {
        return switch (event) {
            case "alloc" -> "--alloc";
            case "lock" -> "--lock";
            case "wall" -> "--wall";
            default -> "--cpu";
        };
    }

    /** {@code event}'s samples in {@code jfr} as collapsed stacks (one line per stack: frames;... count). */
    public static void jfrToCollapsed(Path jfr, String event, Path collapsed) throws IOException {
        JfrToFlame.convert(jfr.toString(), collapsed.toString(), new Arguments("-o", "collapsed", jfrFlag(event)));
    }

    /** One HTML flame graph of all stacks in {@code inputs} (summed, so several forks make one graph). */
    public static void html(List<Path> inputs, Path out, String title, boolean reverse) throws IOException {
        FlameGraph graph = parse(inputs, title, reverse, false);
        write(graph, out);
    }

    /** The stacks of {@code inputs} summed into one collapsed file. */
    public static void mergeCollapsed(List<Path> inputs, Path out) throws IOException {
        FlameGraph graph = new FlameGraph(new Arguments("-o", "collapsed"));
        for (Path in : inputs) {
            try (Reader r = Files.newBufferedReader(in, StandardCharsets.UTF_8)) {
                graph.parseCollapsed(r);
            }
        }
        write(graph, out);
    }

    /**
     * The differential flame graph: {@code after}'s stacks, each frame coloured by how much hotter (red) or colder
     * (blue) it is than in {@code before}.
     */
    public static void diff(Path before, Path after, Path out, String title) throws IOException {
        FlameGraph base = parse(List.of(before), title, false, true);
        FlameGraph next = parse(List.of(after), title, false, true);
        next.diff(base); // as the converter's own --diff does: the second profile, set against the first
        write(next, out);
    }

    private static FlameGraph parse(List<Path> inputs, String title, boolean reverse, boolean diff) throws IOException {
        List<String> argv = new ArrayList<>(List.of("-o", "html", "--title", title));
        if (reverse) {
            argv.add("--reverse");
        }
        if (diff) {
            argv.add("--diff");
        }
        FlameGraph graph = new FlameGraph(new Arguments(argv.toArray(String[]::new)));
        for (Path in : inputs) {
            try (Reader r = Files.newBufferedReader(in, StandardCharsets.UTF_8)) {
                graph.parseCollapsed(r);
            }
        }
        return graph;
    }

    private static void write(FlameGraph graph, Path out) throws IOException {
        Path temp = out.resolveSibling(out.getFileName() + ".tmp");
        try (OutputStream os = Files.newOutputStream(temp)) {
            graph.dump(os);
        }
        Files.move(temp, out, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
}

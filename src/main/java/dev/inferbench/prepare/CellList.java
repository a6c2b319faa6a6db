package dev.inferbench.prepare;

import dev.inferbench.BenchException;
import dev.inferbench.cell.Cell;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An explicit list of configurations ({@code --cells FILE}) instead of the one cross product of every {@code -p}:
 * each line is a group of parameter values, {@code batchSize=1 precision=fp32} or {@code batchSize=8,16
 * precision=fp16}, which override the command line's and the defaults' values for its own cells; the run is the
 * union of the groups' cells, in file order, each cell once. Blank lines and lines starting with {@code #} are
 * skipped. The cells go into the plan like any others, so {@code --resume}, shards and {@code compare} work on them.
 */
public final class CellList {
    /** @param line 1-based, for messages */
    record Group(int line, Map<String, List<String>> values) {
    }

    private CellList() {
    }

    static List<Group> read(Path file) throws BenchException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            throw new BenchException("--cells " + file + " cannot be read (" + e.getClass().getSimpleName()
                    + "); expected a text file of configurations, one per line, e.g. batchSize=1 precision=fp32", e);
        }
        return parse(lines, file.toString());
    }

    static List<Group> parse(List<String> lines, String source) throws BenchException {
        List<Group> groups = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            Map<String, List<String>> values = new LinkedHashMap<>();
            for (String token : line.split("\\s+")) {
                int eq = token.indexOf('=');
                String name = eq > 0 ? token.substring(0, eq) : "";
                List<String> vs = eq > 0 ? List.of(token.substring(eq + 1).split(",", -1)) : List.of();
                if (name.isEmpty() || vs.stream().anyMatch(String::isEmpty) || values.containsKey(name)) {
                    throw new BenchException(source + " line " + (i + 1) + ": '" + token + "' is not name=value"
                            + (values.containsKey(name) ? " given once" : "") + "; expected e.g. batchSize=8 precision=fp16");
                }
                values.put(name, vs);
            }
            groups.add(new Group(i + 1, values));
        }
        if (groups.isEmpty()) {
            throw new BenchException(source + " holds no configuration; expected one per line, e.g. batchSize=1"
                    + " precision=fp32");
        }
        return groups;
    }

    /** The union of the groups' cells over the run's options, each cell once, in file order. */
    static List<Cell> cells(List<Group> groups, Options options, String source) throws BenchException {
        Set<Cell> cells = new LinkedHashSet<>();
        for (Group g : groups) {
            Planner.checkParamNames(g.values().keySet(), source + " line " + g.line());
            ChainedOptionsBuilder b = new OptionsBuilder().parent(options);
            g.values().forEach((k, vs) -> b.param(k, vs.toArray(String[]::new)));
            cells.addAll(Planner.cells(b.build()));
        }
        return List.copyOf(cells);
    }
}

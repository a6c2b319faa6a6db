package dev.inferbench.compare;

import dev.inferbench.results.SettingParams;

import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What makes two cells of two runs the same cell: the benchmark and every one of its params, and the JMH mode when a
 * run measured the same cell in several modes ({@code -bm avgt,thrpt}); empty otherwise, so that a mode that differs
 * between the runs is reported as such instead of as two unmatched cells.
 */
public record CellKey(String benchmark, String mode, Map<String, String> params) implements Comparable<CellKey> {

    public CellKey {
        params = new TreeMap<>(params);
    }

    public CellKey(String benchmark, Map<String, String> params) {
        this(benchmark, "", params);
    }

    /** This cell told apart by its mode. */
    public CellKey withMode(String m) {
        return new CellKey(benchmark, m, params);
    }

    /** "infer batchSize=1 engine=ort ...": the method name (and [mode] when it tells cells apart), then params in name order. */
    public String label() {
        return label(params.keySet());
    }

    /** The label with only the params named (those that tell the cells of a table apart). */
    public String label(Collection<String> shown) {
        String method = benchmark.substring(benchmark.lastIndexOf('.') + 1) + (mode.isEmpty() ? "" : " [" + mode + "]");
        String p = SettingParams.of(params).entrySet().stream().filter(e -> shown.contains(e.getKey()))
                .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" "));
        return p.isEmpty() ? method : method + " " + p;
    }

    @Override
    public int compareTo(CellKey o) {
        int c = benchmark.compareTo(o.benchmark);
        if (c == 0) {
            c = label().compareTo(o.label());
        }
        return c != 0 ? c : mode.compareTo(o.mode);
    }
}

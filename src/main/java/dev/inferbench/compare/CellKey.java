package dev.inferbench.compare;

import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** What makes two cells of two runs the same cell: the benchmark and every one of its params. */
public record CellKey(String benchmark, Map<String, String> params) implements Comparable<CellKey> {

    public CellKey {
        params = new TreeMap<>(params);
    }

    /** "infer batchSize=1 engine=ort ...": the method name, then params in name order. */
    public String label() {
        String method = benchmark.substring(benchmark.lastIndexOf('.') + 1);
        String p = params.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" "));
        return p.isEmpty() ? method : method + " " + p;
    }

    @Override
    public int compareTo(CellKey o) {
        int c = benchmark.compareTo(o.benchmark);
        return c != 0 ? c : label().compareTo(o.label());
    }
}

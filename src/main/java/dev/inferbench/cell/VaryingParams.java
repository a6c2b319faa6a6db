package dev.inferbench.cell;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The params whose values differ between the cells of a run: what tells one cell from another. Every line that
 * names a cell (the progress line, the summary's notes, the machine's disturbed forks) names it by these, in the
 * order the tables use, so that two notes of one run never read alike when they mean two cells.
 */
public final class VaryingParams {
    /** The params named first when they vary, in this order; the others follow in the cells' own order. */
    private static final List<String> ORDER = List.of(CellSpec.MODEL, CellSpec.ENGINE, CellSpec.BATCH_SIZE,
            CellSpec.SEQ_LEN, CellSpec.DEVICE, CellSpec.THREADS);

    private final Set<String> keys;

    private VaryingParams(Set<String> keys) {
        this.keys = keys;
    }

    /**
     * Of the cells given by their params. A param varies when the cells that have it hold two or more values; one
     * that only some cells have (a fault-injection cell beside model cells) does not, as it tells benchmarks apart,
     * not settings.
     */
    public static VaryingParams of(Collection<? extends Map<String, String>> cells) {
        Set<String> all = new LinkedHashSet<>();
        ORDER.stream().filter(k -> cells.stream().anyMatch(c -> c.containsKey(k))).forEach(all::add);
        cells.forEach(c -> all.addAll(c.keySet()));
        Set<String> varying = new LinkedHashSet<>();
        for (String k : all) {
            if (cells.stream().filter(c -> c.containsKey(k)).map(c -> c.get(k)).distinct().count() > 1) {
                varying.add(k);
            }
        }
        return new VaryingParams(varying);
    }

    /** The params that vary, in naming order. */
    public Set<String> keys() {
        return keys;
    }

    /** {@code batchSize=1 threads=2}: the cell's values of the params that vary; empty when none does. */
    public String name(Map<String, String> params) {
        return name(params, Set.of());
    }

    /** As {@link #name(Map)}, leaving out params the line names already ({@code said}). */
    public String name(Map<String, String> params, Set<String> said) {
        StringBuilder sb = new StringBuilder();
        for (String k : keys) {
            if (!said.contains(k) && params.containsKey(k)) {
                sb.append(sb.length() == 0 ? "" : " ").append(k).append('=').append(params.get(k));
            }
        }
        return sb.toString();
    }
}

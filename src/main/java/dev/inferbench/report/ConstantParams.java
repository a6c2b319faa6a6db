package dev.inferbench.report;

import dev.inferbench.cell.Cell;
import dev.inferbench.results.SettingParams;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The params that every cell of a table has with one value: said once in a line above the table ("every cell:
 * engine=ort, threads=0") instead of filling a column with the same text in every row. One rule for the terminal
 * summary, the serving table and the Markdown and HTML reports. A param that had no effect in a cell ({@link #shown})
 * is neither in that line nor in a column of that cell: its value (often a default JMH still records) was no setting
 * of the cell.
 */
final class ConstantParams {
    private ConstantParams() {
    }

    /**
     * The params of {@code keys} that every cell has with one value (a param some cells lack is not constant),
     * sorted by name and removed from {@code keys}, which keeps the columns; those in {@code always} stay columns
     * whatever their values.
     */
    static Map<String, String> split(List<Map<String, String>> cells, Set<String> keys, Set<String> always) {
        Map<String, String> constant = new TreeMap<>();
        for (String k : List.copyOf(keys)) {
            Set<String> values = new LinkedHashSet<>();
            cells.forEach(c -> values.add(c.getOrDefault(k, "")));
            if (!always.contains(k) && values.size() == 1) {
                keys.remove(k);
                constant.put(k, values.iterator().next());
            }
        }
        return constant;
    }

    /** A cell's params without those that had no effect in it ({@link SettingParams}). */
    static Map<String, String> shown(Map<String, String> params) {
        return SettingParams.of(params);
    }

    /** {@code prefix: k=v, k=v}, or empty when nothing is constant. */
    static String line(String prefix, Map<String, String> constant) {
        StringBuilder sb = new StringBuilder();
        constant.forEach((k, v) -> {
            if (!Cell.unset(k, v)) {
                sb.append(sb.length() == 0 ? prefix + ": " : ", ").append(k).append('=').append(v);
            }
        });
        return sb.toString();
    }
}

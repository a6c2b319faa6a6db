package dev.inferbench.report;

import dev.inferbench.results.CellSummary;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** The compact table printed after a run and saved as summary.txt. */
public final class SummaryTable {
    private static final List<String> PARAM_ORDER = List.of("model", "engine", "batchSize", "device", "threads");
    private static final Map<String, String> HEADINGS = Map.of("batchSize", "batch");

    private SummaryTable() {
    }

    /** Rows sorted by benchmark, then model, engine, batch (numerically), device, threads, other params. */
    public static String render(List<CellSummary> unsorted) {
        if (unsorted.isEmpty()) {
            return "no results\n";
        }
        List<CellSummary> cells = new ArrayList<>(unsorted);
        Set<String> paramKeys = new LinkedHashSet<>();
        PARAM_ORDER.stream().filter(k -> cells.stream().anyMatch(c -> c.params().containsKey(k))).forEach(paramKeys::add);
        cells.forEach(c -> paramKeys.addAll(c.params().keySet()));
        cells.sort(Comparator.comparing(CellSummary::benchmark).thenComparing((a, b) -> {
            for (String k : paramKeys) {
                int c = compareValues(a.params().getOrDefault(k, ""), b.params().getOrDefault(k, ""));
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        }));
        boolean manyBenchmarks = cells.stream().map(CellSummary::benchmark).distinct().count() > 1;
        String unit = cells.get(0).unit();

        List<String> head = new ArrayList<>();
        if (manyBenchmarks) {
            head.add("benchmark");
        }
        paramKeys.forEach(k -> head.add(HEADINGS.getOrDefault(k, k)));
        head.addAll(List.of("p50 " + unit, "p99 " + unit, "mean ± 95% CI", "±%", "forks", "samples/s"));

        List<List<String>> rows = new ArrayList<>();
        rows.add(head);
        for (CellSummary c : cells) {
            List<String> row = new ArrayList<>();
            if (manyBenchmarks) {
                row.add(c.benchmark());
            }
            paramKeys.forEach(k -> row.add(c.params().getOrDefault(k, "")));
            row.add(num(c.p50()));
            row.add(num(c.p99()));
            row.add(num(c.mean().estimate()) + " ± " + num(c.mean().halfWidth()));
            double rel = c.mean().relativeError();
            row.add(Double.isNaN(rel) ? "n/a" : String.format(Locale.ROOT, "%.1f%%", rel * 100));
            row.add(Integer.toString(c.mean().forks()));
            row.add(num(c.samplesPerSecond()));
            rows.add(row);
        }
        return layout(rows);
    }

    private static int compareValues(String a, String b) {
        if (a.matches("\\d+") && b.matches("\\d+") && a.length() < 10 && b.length() < 10) {
            return Integer.compare(Integer.parseInt(a), Integer.parseInt(b));
        }
        return a.compareTo(b);
    }

    static String layout(List<List<String>> rows) {
        int cols = rows.get(0).size();
        int[] width = new int[cols];
        for (List<String> r : rows) {
            for (int i = 0; i < cols; i++) {
                width[i] = Math.max(width[i], r.get(i).length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (List<String> r : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < cols; i++) {
                line.append(String.format(Locale.ROOT, "%-" + width[i] + "s", r.get(i)));
                if (i < cols - 1) {
                    line.append("  ");
                }
            }
            sb.append(line.toString().stripTrailing()).append('\n');
        }
        return sb.toString();
    }

    /** Four significant figures or so, without scientific notation for the usual range. */
    static String num(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        double a = Math.abs(v);
        String fmt = a >= 1000 ? "%.0f" : a >= 100 ? "%.1f" : a >= 10 ? "%.2f" : a >= 1 ? "%.3f" : "%.4f";
        return String.format(Locale.ROOT, fmt, v);
    }
}

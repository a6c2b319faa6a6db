package dev.inferbench.report;

import java.util.function.ToDoubleFunction;
import java.util.HashMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The table every human-readable format shows: which columns exist (only those some cell has), rows grouped by
 * model, a time unit per group chosen so that values read well, and the best value per group. Formats render its
 * {@link Value}s; they decide nothing about content.
 */
final class ReportTable {
    /** The usual matrix params first, in this order; any others follow in the order cells name them. */
    static final List<String> PREFERRED = List.of("model", "precision", "engine", "batchSize", "seqLen", "device",
            "threads");
    static final String WARNINGS = "stability";

    /** A rendered cell: its text (never null) and whether it is the group's best in its column. */
    record Value(String text, boolean best, boolean numeric) {
    }

    private final String name;
    private final String unit;
    private final List<ReportRow> rows;
    private final boolean multiRun;
    private final List<String> params;
    private final boolean percentiles;
    private final boolean p90;
    private final boolean samples;
    private final boolean warnings;
    private final List<String> secondary;

    private ReportTable(String name, List<ReportRow> rows, boolean multiRun) {
        this.name = name;
        this.rows = List.copyOf(rows);
        this.multiRun = multiRun;
        unit = Units.choose(rows);
        Set<String> names = new LinkedHashSet<>();
        rows.forEach(r -> names.addAll(r.params().keySet()));
        List<String> ordered = new ArrayList<>(PREFERRED.stream().filter(names::contains).toList());
        names.stream().filter(n -> !ordered.contains(n)).forEach(ordered::add);
        params = List.copyOf(ordered);
        percentiles = rows.stream().anyMatch(r -> !Double.isNaN(r.p50()));
        p90 = rows.stream().anyMatch(r -> !Double.isNaN(r.p90()));
        samples = rows.stream().anyMatch(r -> !Double.isNaN(r.samplesPerSecond()));
        warnings = rows.stream().anyMatch(r -> !r.warnings().isEmpty());
        Set<String> sec = new LinkedHashSet<>();
        rows.forEach(r -> sec.addAll(r.extra().keySet()));
        sec.remove(ReportRows.SAMPLES);
        secondary = List.copyOf(sec);
    }

    /** One table per model (or per benchmark without a model param), in the order rows first name them. */
    /** Per column and direction: the group's best value, or empty when fewer than two cells have one. */
    private final Map<String, double[]> bests = new HashMap<>();

    static List<ReportTable> of(List<ReportRow> rows) {
        boolean multiRun = rows.stream().map(ReportRow::run).distinct().count() > 1;
        // one table per model; within a model, one per JMH mode when there are several (-bm avgt,thrpt: a rate and a
        // time must not share a column), and one per unit of a rate (ops/s and ops/ms do not convert)
        Map<String, Set<String>> kindsByGroup = new LinkedHashMap<>();
        rows.forEach(r -> kindsByGroup.computeIfAbsent(r.group(), k -> new LinkedHashSet<>()).add(kind(r)));
        Map<String, List<ReportRow>> byGroup = new LinkedHashMap<>();
        rows.forEach(r -> byGroup.computeIfAbsent(kindsByGroup.get(r.group()).size() > 1
                ? r.group() + " (" + kind(r) + ")" : r.group(), k -> new ArrayList<>()).add(r));
        List<ReportTable> tables = new ArrayList<>();
        byGroup.forEach((name, rs) -> tables.add(new ReportTable(name, rs, multiRun)));
        return tables;
    }

    /** What may share a table's columns: rows of one mode, and for rates one unit. */
    private static String kind(ReportRow r) {
        return r.isTime() ? r.mode() : r.mode() + ", " + r.unit();
    }

    String name() {
        return name;
    }

    /** The time unit of this table's latency columns (µs, ms, ...). */
    String unit() {
        return unit;
    }

    List<ReportRow> rows() {
        return rows;
    }

    /** The param columns, usual matrix params first. */
    List<String> params() {
        return params;
    }

    List<String> header() {
        List<String> h = new ArrayList<>();
        if (multiRun) {
            h.add("run");
        }
        h.addAll(params);
        if (percentiles) {
            h.add("p50 (" + unit + ")");
            if (p90) {
                h.add("p90 (" + unit + ")");
            }
            h.add("p95 (" + unit + ")");
            h.add("p99 (" + unit + ")");
            h.add("max (" + unit + ")");
        }
        h.add("mean (" + unit + ")");
        h.add("± (" + unit + ")");
        if (samples) {
            h.add("samples/s");
        }
        for (String s : secondary) {
            String unit = rows.stream().map(r -> r.extra().get(s)).filter(f -> f != null).map(ReportRow.Figure::unit)
                    .findFirst().orElse("");
            h.add(unit.isEmpty() || unit.equals("---") ? s : s + " (" + unit + ")");
        }
        if (warnings) {
            h.add(WARNINGS);
        }
        return h;
    }

    List<Value> values(ReportRow r) {
        List<Value> v = new ArrayList<>();
        if (multiRun) {
            v.add(text(r.run()));
        }
        params.forEach(p -> v.add(text(r.params().getOrDefault(p, ""))));
        if (percentiles) {
            v.add(time(r, "p50", ReportRow::p50, true));
            if (p90) {
                v.add(time(r, "p90", ReportRow::p90, true));
            }
            v.add(time(r, "p95", ReportRow::p95, true));
            v.add(time(r, "p99", ReportRow::p99, true));
            v.add(time(r, "max", ReportRow::max, true));
        }
        v.add(time(r, "mean", ReportRow::mean, true));
        v.add(number(Units.convert(r.halfWidth(), r.unit(), unit), false));
        if (samples) {
            v.add(best(r, "samples", ReportRow::samplesPerSecond, false));
        }
        for (String s : secondary) {
            ReportRow.Figure f = r.extra().get(s);
            v.add(number(f == null ? Double.NaN : f.value(), false));
        }
        if (warnings) {
            v.add(text(String.join("; ", r.warnings())));
        }
        return v;
    }

    private Value time(ReportRow r, String column, ToDoubleFunction<ReportRow> f, boolean lower) {
        // the best is picked among values in the table's unit: 0.6 ms/op is not better than 500 us/op
        ToDoubleFunction<ReportRow> inTableUnit = x -> Units.convert(f.applyAsDouble(x), x.unit(), unit);
        double v = inTableUnit.applyAsDouble(r);
        if (Double.isNaN(v)) {
            return new Value("n/a", false, true); // a percentile with too few calls behind it (see the stability column)
        }
        return new Value(Units.format(v), isBest(r, column, inTableUnit, r.isTime() == lower), true);
    }

    /** The value, marked when it is the group's best (lowest or highest) and the group has more than one value. */
    private Value best(ReportRow r, String column, ToDoubleFunction<ReportRow> f, boolean lowest) {
        return new Value(Units.format(f.applyAsDouble(r)), isBest(r, column, f, lowest), true);
    }

    private boolean isBest(ReportRow r, String column, ToDoubleFunction<ReportRow> f, boolean lowest) {
        double mine = f.applyAsDouble(r);
        // each column's best once per table, not once per row: a table of n rows would cost n^2 otherwise
        double[] best = bests.computeIfAbsent(column + (lowest ? "-min" : "-max"), k -> {
            double[] all = rows.stream().mapToDouble(f).filter(d -> !Double.isNaN(d)).toArray();
            return all.length < 2 ? new double[0] : new double[]{lowest ? Arrays.stream(all).min().getAsDouble()
                    : Arrays.stream(all).max().getAsDouble()};
        });
        return best.length == 1 && !Double.isNaN(mine) && mine == best[0];
    }

    private static Value number(double d, boolean best) {
        return new Value(Units.format(d), best, true);
    }

    private static Value text(String s) {
        return new Value(s, false, false);
    }
}

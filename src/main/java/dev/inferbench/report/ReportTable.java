package dev.inferbench.report;

import dev.inferbench.cell.CellSpec;
import dev.inferbench.results.CallFigures;
import dev.inferbench.results.MetricCatalogue;
import dev.inferbench.results.MetricEntry;
import dev.inferbench.results.MetricGroup;
import dev.inferbench.stats.Direction;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The table every human-readable format shows: which columns exist (only those some cell has), rows grouped by
 * model, a time unit per group chosen so that values read well, and the best value per group. Params that every row
 * has with one value are not columns but one line above the table ({@link #constants()}); metric columns come in
 * {@link MetricGroup}s, in the groups' order. Formats render its {@link Value}s; they decide nothing about content.
 */
final class ReportTable {
    /** The usual matrix params first, in this order; any others follow in the order cells name them. */
    static final List<String> PREFERRED = List.of("model", "precision", "engine", "batchSize", "seqLen", "device",
            "threads");
    static final String WARNINGS = "stability";

    /** A rendered cell: its text (never null) and whether it is the group's best in its column. */
    record Value(String text, boolean best, boolean numeric) {
    }

    /** A column: its heading, its metric group (null for the run, the params and the stability column), its values. */
    record Column(String title, MetricGroup group, Function<ReportRow, Value> value) {
    }

    private final String name;
    private final String unit;
    private final List<ReportRow> rows;
    private final List<String> params;
    private final Map<String, String> constants;
    private final List<Column> columns = new ArrayList<>();
    /** Per column and direction: the group's best value, or empty when fewer than two cells have one. */
    private final Map<String, double[]> bests = new HashMap<>();

    private ReportTable(String name, List<ReportRow> rows, boolean multiRun) {
        this.name = name;
        this.rows = List.copyOf(rows);
        unit = Units.choose(rows);
        Set<String> names = new LinkedHashSet<>();
        rows.forEach(r -> names.addAll(ConstantParams.shown(r.params()).keySet()));
        Set<String> ordered = new LinkedHashSet<>(PREFERRED.stream().filter(names::contains).toList());
        ordered.addAll(names);
        if (!SeqLenShown.of(rows.stream().map(r -> r.extra().keySet()).toList())) {
            ordered.remove(CellSpec.SEQ_LEN);
        }
        constants = ConstantParams.split(rows.stream().map(r -> ConstantParams.shown(r.params())).toList(), ordered,
                Set.of());
        params = List.copyOf(ordered);
        if (multiRun) {
            columns.add(new Column("run", null, r -> text(r.run())));
        }
        params.forEach(p -> columns.add(new Column(p, null,
                r -> text(ConstantParams.shown(r.params()).getOrDefault(p, "")))));
        List<Column> metrics = new ArrayList<>();
        // the calls' figures where some row has a percentile: min, the percentiles, max, then the mean, then sd
        List<String> calls = rows.stream().anyMatch(r -> r.calls().entrySet().stream()
                .anyMatch(e -> CallFigures.isPercentile(e.getKey()) && !Double.isNaN(e.getValue())))
                ? CallFigures.ordered(rows.stream().flatMap(r -> r.calls().keySet().stream()).toList()) : List.of();
        calls.stream().filter(n -> !n.equals(CallFigures.SD)).forEach(n -> metrics.add(latency(n, r -> r.call(n))));
        metrics.add(latency("mean", ReportRow::mean));
        metrics.add(new Column("± (" + unit + ")", MetricGroup.LATENCY,
                r -> number(Units.convert(r.halfWidth(), r.unit(), unit))));
        if (calls.contains(CallFigures.SD)) {
            metrics.add(latency(CallFigures.SD, r -> r.call(CallFigures.SD)));
        }
        if (rows.stream().anyMatch(r -> !Double.isNaN(r.samplesPerSecond()))) {
            MetricEntry samples = MetricCatalogue.find(ReportRows.SAMPLES);
            boolean lowest = samples.direction() == Direction.LOWER_IS_BETTER;
            metrics.add(new Column(samples.heading(), samples.group(),
                    r -> best(r, ReportRows.SAMPLES, ReportRow::samplesPerSecond, lowest)));
        }
        Set<String> secondary = new LinkedHashSet<>();
        rows.forEach(r -> secondary.addAll(r.extra().keySet()));
        secondary.remove(ReportRows.SAMPLES);
        secondary.forEach(s -> metrics.add(secondary(s)));
        metrics.sort(Comparator.comparing(Column::group)); // stable: within a group, the order above
        columns.addAll(metrics);
        if (rows.stream().anyMatch(r -> !r.warnings().isEmpty())) {
            columns.add(new Column(WARNINGS, null, r -> text(String.join("; ", r.warnings()))));
        }
    }

    /** One table per model (or per benchmark without a model param), in the order rows first name them. */
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

    /** The param columns: those whose value differs between rows, usual matrix params first. */
    List<String> params() {
        return params;
    }

    /** The params every row has with one value, by name; no column of their own. */
    Map<String, String> constants() {
        return constants;
    }

    /**
     * "every cell: engine=ort, threads=0" for the line above the table, or empty; the model is left out, as the
     * table's heading names it.
     */
    String constantsLine() {
        Map<String, String> shown = new TreeMap<>(constants);
        shown.remove(CellSpec.MODEL);
        return ConstantParams.line("every cell", shown);
    }

    List<Column> columns() {
        return columns;
    }

    List<String> header() {
        return columns.stream().map(Column::title).toList();
    }

    List<Value> values(ReportRow r) {
        return columns.stream().map(c -> c.value().apply(r)).toList();
    }

    /**
     * A secondary metric's column in its own unit; a time per call or per sample ({@code latency.sample} in
     * ms/sample) in the table's unit, so that it reads beside the latency columns.
     */
    private Column secondary(String s) {
        String u = rows.stream().map(r -> r.extra().get(s)).filter(f -> f != null).map(ReportRow.Figure::unit)
                .findFirst().orElse("");
        String perSample = "/sample";
        String time = u.endsWith(perSample) ? u.substring(0, u.length() - perSample.length()) : u;
        // a time per call or per sample reads in the table's unit; a one-off time (load, first call, process to
        // first result, in ms) keeps its own: 761 ms is not "761000" in a table of µs per call
        boolean perCall = time.endsWith("/op") || u.endsWith(perSample);
        if (perCall && !Double.isNaN(Units.seconds(time)) && !Double.isNaN(Units.seconds(unit))) {
            return new Column(s + " (" + unit + (u.endsWith(perSample) ? perSample : "") + ")", MetricCatalogue.of(s, u).group(),
                    r -> number(Units.convert(r.figure(s), time, unit)));
        }
        return new Column(u.isEmpty() || u.equals("---") ? s : s + " (" + u + ")", MetricCatalogue.of(s, u).group(),
                r -> number(r.figure(s)));
    }

    /** A time column in the table's unit, its lowest value marked (the highest, for a rate in a thrpt table). */
    private Column latency(String column, ToDoubleFunction<ReportRow> f) {
        return new Column(column + " (" + unit + ")", MetricGroup.LATENCY, r -> time(r, column, f, true));
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

    private static Value number(double d) {
        return new Value(Units.format(d), false, true);
    }

    private static Value text(String s) {
        return new Value(s, false, false);
    }
}

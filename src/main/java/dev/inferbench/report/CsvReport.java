package dev.inferbench.report;

import dev.inferbench.results.MetricCatalogue;
import dev.inferbench.results.CallFigures;
import dev.inferbench.stats.Percentiles;

import java.io.PrintWriter;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * report.csv: one row per cell, one column per param and per metric, RFC 4180 quoting and CRLF line ends; empty
 * where a cell lacks a value. Every figure's unit is stated: the latency columns (min, the report's percentiles, max,
 * mean, mean.error, sd: {@link ReportRows#percentiles}) are in the
 * primary metric's own unit, which the row's {@code unit} column gives; every other metric's header carries its unit
 * ({@code mem.rss.peak [MiB]}), and a metric that comes in two units (runs of different JMH settings in one report)
 * gets a column per unit rather than numbers of two scales in one column.
 */
final class CsvReport {
    private CsvReport() {
    }

    static void write(List<ReportRow> rows, double[] percentiles, Writer w) {
        PrintWriter out = new PrintWriter(w);
        Set<String> params = new LinkedHashSet<>();
        Set<List<String>> metrics = new LinkedHashSet<>(); // name and unit
        rows.forEach(r -> {
            params.addAll(r.params().keySet());
            r.extra().forEach((name, f) -> metrics.add(List.of(name, f.unit())));
        });
        List<String> calls = new ArrayList<>(List.of(CallFigures.MIN));
        Arrays.stream(ReportRows.percentiles(percentiles)).mapToObj(Percentiles::label).forEach(calls::add);
        calls.add(CallFigures.MAX);
        List<String> fixed = new ArrayList<>(List.of("run", "benchmark", "mode", "unit"));
        fixed.addAll(calls);
        fixed.addAll(List.of("mean", "mean.error", CallFigures.SD, "forks", "samples", "warnings"));
        List<String> header = new ArrayList<>(fixed.subList(0, 3));
        // a param or metric named like a fixed column (a param "mode") gets a prefix: column names stay unique for
        // readers that key rows by header (pandas, csv.DictReader)
        params.forEach(p -> header.add(fixed.contains(p) ? "param." + p : p));
        header.addAll(fixed.subList(3, fixed.size() - 1));
        for (List<String> m : metrics) {
            String name = m.get(0).equals(ReportRows.SAMPLES) ? MetricCatalogue.find(ReportRows.SAMPLES).heading() : m.get(0);
            name = header.contains(name) || fixed.contains(name) ? "metric." + name : name;
            String unit = m.get(1);
            header.add(unit.isEmpty() || unit.equals("---") || name.equals(unit) ? name : name + " [" + unit + "]");
        }
        header.add("warnings");
        line(out, header);
        for (ReportRow r : rows) {
            List<String> f = new ArrayList<>(List.of(r.run(), r.benchmark(), r.mode()));
            params.forEach(p -> f.add(r.params().getOrDefault(p, "")));
            f.add(r.unit());
            calls.forEach(c -> f.add(plain(r.call(c))));
            for (double d : new double[]{r.mean(), r.halfWidth(), r.call(CallFigures.SD)}) {
                f.add(plain(d));
            }
            f.add(Integer.toString(r.forks()));
            f.add(Long.toString(r.samples()));
            metrics.forEach(m -> {
                ReportRow.Figure v = r.extra().get(m.get(0));
                f.add(v != null && v.unit().equals(m.get(1)) ? plain(v.value()) : "");
            });
            f.add(String.join("; ", r.warnings()));
            line(out, f);
        }
        out.flush();
    }

    /** Full precision for machines, locale-independent; NaN as an empty field. */
    private static String plain(double d) {
        return Double.isNaN(d) ? "" : Double.toString(d);
    }

    private static void line(PrintWriter out, List<String> fields) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(field(fields.get(i)));
        }
        out.print(sb.append("\r\n"));
    }

    /** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
    static String field(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }
}

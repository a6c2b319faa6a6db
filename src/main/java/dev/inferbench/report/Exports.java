package dev.inferbench.report;

import dev.inferbench.Json;
import java.util.Set;
import java.util.Map;
import java.util.HashSet;
import java.util.HashMap;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.inferbench.results.CallFigures;
import dev.inferbench.results.MetricCatalogue;
import dev.inferbench.stats.Percentiles;
import dev.inferbench.stats.Direction;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * JSON for other tools, each fixing what that tool's JMH import gets wrong: github-action-benchmark's custom
 * formats (it treats every JMH score as smaller-is-better, wrong for samples/s), and Bencher's Metric Format (its
 * JMH adapter drops params). JMH Visualizer's file is written by {@code JmhJsonWriter.writeForVisualizer}.
 */
final class Exports {
    private static final ObjectMapper JSON = Json.mapper(Json.Option.PRETTY, Json.Option.FAST_DOUBLES);

    private Exports() {
    }

    /** github-action-benchmark {@code customSmallerIsBetter} (biggerIsBetter false) or {@code customBiggerIsBetter}. */
    static void githubActionBenchmark(List<ReportRow> rows, double[] percentiles, boolean biggerIsBetter, OutputStream out)
            throws IOException {
        ArrayNode all = JSON.createArrayNode();
        Names names = new Names(rows);
        for (ReportRow r : rows) {
            String label = names.of(r);
            String extra = r.forks() + " forks, " + r.samples() + " samples"
                    + (r.warnings().isEmpty() ? "" : "; unstable: " + String.join("; ", r.warnings()));
            if (r.isTime() != biggerIsBetter && !Double.isNaN(r.mean())) {
                ObjectNode n = entry(all, label + " mean", r.unit(), r.mean(), extra);
                if (!Double.isNaN(r.halfWidth())) {
                    n.put("range", "± " + Units.format(r.halfWidth()));
                }
            }
            if (r.isTime()) {
                // each figure of the calls where enough calls stand behind it (n/a ones are NaN and left out)
                calls(r, percentiles).forEach((name, v) -> {
                    if (biggerIsBetter(name, r.unit()) == biggerIsBetter) {
                        entry(all, label + " " + name, r.unit(), v, extra);
                    }
                });
            }
            r.extra().forEach((name, f) -> {
                // a value of 0 (gc.count of a cell that never collects) is no baseline: the tool's next ratio would
                // be infinite and raise an alert over nothing
                if (biggerIsBetter(name, f.unit()) == biggerIsBetter && !Double.isNaN(f.value()) && f.value() != 0) {
                    entry(all, label + " " + name, f.unit(), f.value(), extra);
                }
            });
        }
        JSON.writeValue(out, all);
    }

    /**
     * Benchmark names that tell every row apart: the run in front when there are several runs, the JMH mode behind
     * when a cell was measured in several ({@code -bm avgt,sample}); otherwise benchmark and params only, so that
     * names stay the same from one run to the next (the tools track a benchmark by its name).
     */
    private static final class Names {
        private final boolean multiRun;
        private final Set<String> severalModes = new HashSet<>();

        Names(List<ReportRow> rows) {
            multiRun = rows.stream().map(ReportRow::run).distinct().count() > 1;
            Map<String, String> modes = new HashMap<>();
            for (ReportRow r : rows) {
                String earlier = modes.putIfAbsent(r.run() + "\n" + r.label(), r.mode());
                if (earlier != null && !earlier.equals(r.mode())) {
                    severalModes.add(r.label());
                }
            }
        }

        String of(ReportRow r) {
            String label = r.label();
            return (multiRun ? r.run() + " " : "") + label + (severalModes.contains(label) ? " [" + r.mode() + "]" : "");
        }
    }

    /**
     * The calls' figures of a time cell, in its unit, where each is a figure (enough calls behind it): min, the
     * percentiles a user chose (else p50, p90, p99) and sd.
     */
    private static Map<String, Double> calls(ReportRow r, double[] percentiles) {
        List<String> names = new ArrayList<>(List.of(CallFigures.MIN));
        Arrays.stream(CallFigures.isDefault(percentiles) ? DEFAULT_PERCENTILES : percentiles)
                .mapToObj(Percentiles::label).forEach(names::add);
        names.add(CallFigures.SD);
        Map<String, Double> out = new LinkedHashMap<>();
        CallFigures.ordered(names).forEach(n -> out.put(n, r.call(n)));
        out.values().removeIf(v -> Double.isNaN(v));
        return out;
    }

    /** The percentiles exported unless a user chose others: the median and two points of the tail. */
    private static final double[] DEFAULT_PERCENTILES = {50, 90, 99};

    /**
     * The catalogue's direction ({@link MetricCatalogue}); a metric of unknown direction (gc.count, model.params) goes with the
     * smaller-is-better ones: github-action-benchmark has no neutral file.
     */
    static boolean biggerIsBetter(String metric, String unit) {
        return MetricCatalogue.of(metric, unit).direction() == Direction.HIGHER_IS_BETTER;
    }

    private static ObjectNode entry(ArrayNode all, String name, String unit, double value, String extra) {
        ObjectNode n = all.addObject();
        n.put("name", name);
        n.put("unit", unit);
        n.put("value", value);
        n.put("extra", extra);
        return n;
    }

    /**
     * Bencher Metric Format: per benchmark (params in its name) a measure per metric; {@code latency} in ns with the
     * interval as lower/upper values, {@code latency-min}, {@code latency-p50/p90/p99} (or the percentiles a user chose)
     * and {@code latency-sd} in ns where they are figures, {@code throughput} for a
     * thrpt cell's own score, {@code samples-per-second}, {@code latency-sample} (per sample) in ns too, other metrics
     * under their own slug.
     */
    static void bencher(List<ReportRow> rows, double[] percentiles, OutputStream out) throws IOException {
        ObjectNode all = JSON.createObjectNode();
        Names names = new Names(rows);
        for (ReportRow r : rows) {
            String name = names.of(r);
            ObjectNode bench = all.has(name) ? (ObjectNode) all.get(name) : all.putObject(name);
            if (!r.isTime() && !Double.isNaN(r.mean())) {
                // a thrpt cell's own score (ops/s ...): Bencher's throughput measure, in the cell's unit
                bench.putObject("throughput").put("value", r.mean());
            }
            if (r.isTime()) {
                double ns = Units.convert(1, r.unit(), "ns");
                ObjectNode m = bench.putObject("latency");
                m.put("value", r.mean() * ns);
                if (!Double.isNaN(r.halfWidth())) {
                    m.put("lower_value", (r.mean() - r.halfWidth()) * ns);
                    m.put("upper_value", (r.mean() + r.halfWidth()) * ns);
                }
                calls(r, percentiles).forEach((p, v) -> bench.putObject("latency-" + p).put("value", v * ns));
            }
            r.extra().forEach((metric, f) -> {
                if (!Double.isNaN(f.value())) {
                    // samples/s is not Bencher's throughput (operations, i.e. calls, per second): at batch 8 the two
                    // differ 8x, so it is a measure of its own
                    String slug = metric.equals(ReportRows.SAMPLES) ? "samples-per-second" : metric.replace('.', '-');
                    double value = f.value();
                    if (slug.startsWith("latency-")) {
                        // per-sample latency beside latency: the same unit (ns), not its own ms/sample
                        String u = f.unit().contains("/") ? f.unit().substring(0, f.unit().indexOf('/')) : f.unit();
                        double s = Units.seconds(u);
                        value = Double.isNaN(s) ? value : value * s * 1e9;
                    }
                    bench.putObject(slug).put("value", value);
                }
            });
        }
        JSON.writeValue(out, all);
    }
}

package dev.inferbench.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.inferbench.compare.Directions;
import dev.inferbench.stats.Direction;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * JSON for other tools, each fixing what that tool's JMH import gets wrong: github-action-benchmark's custom
 * formats (it treats every JMH score as smaller-is-better, wrong for samples/s), and Bencher's Metric Format (its
 * JMH adapter drops params). JMH Visualizer's file is written by {@code JmhJson.writeForVisualizer}.
 */
final class Exports {
    /** Writers here never close the stream they are given. */
    private static final ObjectMapper JSON = new ObjectMapper(com.fasterxml.jackson.core.JsonFactory.builder()
            .enable(com.fasterxml.jackson.core.StreamWriteFeature.USE_FAST_DOUBLE_WRITER).build())
            .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);

    private Exports() {
    }

    /** github-action-benchmark {@code customSmallerIsBetter} (biggerIsBetter false) or {@code customBiggerIsBetter}. */
    static void githubActionBenchmark(List<ReportRow> rows, boolean biggerIsBetter, OutputStream out) throws IOException {
        ArrayNode all = JSON.createArrayNode();
        for (ReportRow r : rows) {
            String extra = r.forks() + " forks, " + r.samples() + " samples"
                    + (r.warnings().isEmpty() ? "" : "; unstable: " + String.join("; ", r.warnings()));
            if (r.isTime() != biggerIsBetter && !Double.isNaN(r.mean())) {
                ObjectNode n = entry(all, r.label() + " mean", r.unit(), r.mean(), extra);
                if (!Double.isNaN(r.halfWidth())) {
                    n.put("range", "± " + Units.format(r.halfWidth()));
                }
            }
            if (r.isTime() && !biggerIsBetter && !Double.isNaN(r.p99())) {
                entry(all, r.label() + " p99", r.unit(), r.p99(), extra);
            }
            r.extra().forEach((name, f) -> {
                if (biggerIsBetter(name, f.unit()) == biggerIsBetter && !Double.isNaN(f.value())) {
                    entry(all, r.label() + " " + name, f.unit(), f.value(), extra);
                }
            });
        }
        JSON.writerWithDefaultPrettyPrinter().writeValue(out, all);
    }

    /**
     * Compare's rule ({@link Directions}); a metric of unknown direction (gc.count, model.params) goes with the
     * smaller-is-better ones: github-action-benchmark has no neutral file.
     */
    static boolean biggerIsBetter(String metric, String unit) {
        return Directions.of(metric, unit) == Direction.HIGHER_IS_BETTER;
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
     * interval as lower/upper values, {@code throughput} in samples/s, other metrics under their own slug.
     */
    static void bencher(List<ReportRow> rows, OutputStream out) throws IOException {
        ObjectNode all = JSON.createObjectNode();
        boolean multiRun = rows.stream().map(ReportRow::run).distinct().count() > 1;
        for (ReportRow r : rows) {
            String name = multiRun ? r.run() + " " + r.label() : r.label();
            ObjectNode bench = all.has(name) ? (ObjectNode) all.get(name) : all.putObject(name);
            if (r.isTime()) {
                double ns = Units.convert(1, r.unit(), "ns");
                ObjectNode m = bench.putObject("latency");
                m.put("value", r.mean() * ns);
                if (!Double.isNaN(r.halfWidth())) {
                    m.put("lower_value", (r.mean() - r.halfWidth()) * ns);
                    m.put("upper_value", (r.mean() + r.halfWidth()) * ns);
                }
            }
            r.extra().forEach((metric, f) -> {
                if (!Double.isNaN(f.value())) {
                    String slug = metric.equals(ReportRows.SAMPLES) ? "throughput" : metric.replace('.', '-');
                    bench.putObject(slug).put("value", f.value());
                }
            });
        }
        JSON.writerWithDefaultPrettyPrinter().writeValue(out, all);
    }
}

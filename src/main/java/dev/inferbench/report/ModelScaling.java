package dev.inferbench.report;

import dev.inferbench.cell.CellSpec;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Scaling across models: one row per model and engine of a report with two or more models, giving the model's
 * size (parameters, MACs per sample, file size) beside its speed (mean latency at its smallest batch, per sample,
 * and its best samples/s over the batch sizes measured, with the compute rate that achieves); and two plots of the
 * same, latency per sample against MACs and samples/s against parameters, log scales, a point per model. Means over
 * forks, as the tables beside it show them; the other params are those of the report (cells that differ in more
 * than model, engine and batch each give their own row).
 */
final class ModelScaling {
    /** One model on one engine (and its other params). */
    record Row(String model, String setting, double params, double gmacs, double sizeMib, int batch,
               double latencyMs, double perSampleMs, double bestSamples, int bestBatch, double gmacPerSecond) {
    }

    private ModelScaling() {
    }

    static List<Row> rows(List<ReportRow> cells) {
        Map<String, List<ReportRow>> bySetting = new LinkedHashMap<>();
        for (ReportRow r : cells) {
            if (r.params().containsKey(CellSpec.MODEL) && r.isTime() && !Double.isNaN(r.mean())) {
                Map<String, String> rest = new LinkedHashMap<>(r.params());
                rest.remove(CellSpec.BATCH_SIZE);
                bySetting.computeIfAbsent(r.benchmark() + rest, k -> new ArrayList<>()).add(r);
            }
        }
        if (bySetting.values().stream().map(g -> g.get(0).params().get(CellSpec.MODEL)).distinct().count() < 2) {
            return List.of();
        }
        List<Row> out = new ArrayList<>();
        for (List<ReportRow> g : bySetting.values()) {
            ReportRow first = g.stream().min(Comparator.comparingInt(ModelScaling::batch)).orElseThrow();
            ReportRow best = g.stream().filter(r -> !Double.isNaN(r.samplesPerSecond()))
                    .max(Comparator.comparingDouble(ReportRow::samplesPerSecond)).orElse(first);
            double ms = Units.convert(first.mean(), first.unit(), "ms");
            String setting = first.params().getOrDefault(CellSpec.ENGINE, "") + " "
                    + first.params().getOrDefault(CellSpec.PRECISION, "") + " "
                    + first.params().getOrDefault(CellSpec.DEVICE, "");
            out.add(new Row(first.params().get(CellSpec.MODEL), setting.strip(), first.figure("model.params"),
                    first.figure("model.macs"), first.figure("model.size"), batch(first), ms, ms / batch(first),
                    best.samplesPerSecond(), batch(best), best.figure("gmacs")));
        }
        out.sort(Comparator.comparingDouble(Row::gmacs).thenComparing(Row::model));
        return out;
    }

    private static int batch(ReportRow r) {
        return Integer.parseInt(r.params().getOrDefault(CellSpec.BATCH_SIZE, "1"));
    }

    static final List<String> HEADER = List.of("model", "engine", "parameters", "GMAC/sample", "size (MiB)",
            "latency (ms)", "at batch", "per sample (ms)", "best samples/s", "at batch", "GMAC/s");

    static List<String> cells(Row r) {
        return List.of(r.model(), r.setting(), Units.format(r.params()), Units.format(r.gmacs()),
                Units.format(r.sizeMib()), Units.format(r.latencyMs()), Integer.toString(r.batch()),
                Units.format(r.perSampleMs()), Units.format(r.bestSamples()), Integer.toString(r.bestBatch()),
                Units.format(r.gmacPerSecond()));
    }

    static List<List<ReportTable.Value>> values(List<Row> rows) {
        return rows.stream().map(r -> {
            List<String> c = cells(r);
            List<ReportTable.Value> v = new ArrayList<>();
            for (int i = 0; i < c.size(); i++) {
                v.add(new ReportTable.Value(c.get(i), false, i >= 2));
            }
            return (List<ReportTable.Value>) v;
        }).toList();
    }

    /** The table as HTML, every text escaped. */
    static String html(List<Row> rows) {
        StringBuilder sb = new StringBuilder("<h2>Across models</h2><table class=\"cells\"><thead><tr>");
        HEADER.forEach(h -> sb.append("<th>").append(HtmlReport.escape(h)).append("</th>"));
        sb.append("</tr></thead><tbody>");
        for (Row r : rows) {
            sb.append("<tr>");
            cells(r).forEach(c -> sb.append("<td>").append(HtmlReport.escape(c)).append("</td>"));
            sb.append("</tr>");
        }
        return sb.append("</tbody></table>").toString();
    }

    /** Latency per sample against MACs, and best samples/s against parameters: a point (a series) per row. */
    static List<Plots.Plot> plots(List<ReportRow> cells) {
        List<Row> rows = rows(cells);
        if (rows.isEmpty()) {
            return List.of();
        }
        return List.of(
                plot("models-latency-vs-macs", "Across models: latency per sample vs compute", "GMAC per sample",
                        "latency per sample (ms)", rows, Row::gmacs, Row::perSampleMs),
                plot("models-throughput-vs-params", "Across models: best samples/s vs parameters", "parameters",
                        "samples/s (best batch)", rows, Row::params, Row::bestSamples));
    }

    private static Plots.Plot plot(String name, String title, String x, String y, List<Row> rows,
                                   java.util.function.ToDoubleFunction<Row> fx, java.util.function.ToDoubleFunction<Row> fy) {
        XYChart chart = Plots.xy(title, x, y);
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setMarkerSize(10);
        boolean settings = rows.stream().map(Row::setting).distinct().count() > 1;
        for (Row r : rows) {
            double vx = fx.applyAsDouble(r);
            double vy = fy.applyAsDouble(r);
            if (vx > 0 && vy > 0) {
                String label = Plots.unique(chart, r.model() + (settings ? " " + r.setting() : ""));
                chart.addSeries(label, new double[]{vx}, new double[]{vy}).setMarker(SeriesMarkers.CIRCLE);
            }
        }
        return new Plots.Plot(name, title, Plots.styled(chart));
    }
}

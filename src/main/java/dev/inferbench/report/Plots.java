package dev.inferbench.report;

import dev.inferbench.AtomicFile;
import dev.inferbench.BenchException;
import dev.inferbench.Numbers;
import dev.inferbench.serve.ServingProfiler;
import dev.inferbench.serve.ServingSpec;
import dev.inferbench.serve.Slo;
import org.knowm.xchart.style.markers.SeriesMarkers;
import dev.inferbench.cell.CellSpec;
import org.knowm.xchart.XYSeries;
import java.util.Locale;
import java.util.HashSet;
import java.util.Collection;
import java.awt.Color;
import dev.inferbench.cell.Cell;
import dev.inferbench.results.CellSummary;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The report's charts, per model: latency and samples/s against batch size (a line per engine and other
 * settings), the cells' means as bars with their intervals, and the latency percentile curve of each cell on a nines
 * axis. Rates, sizes and times are drawn from 0 ({@link PlotAxes}); an axis that is not says so in its title.
 * Written as SVG (inlined in the HTML) and PNG at 144 dpi.
 */
final class Plots {
    static final String FOLDER = "plots";
    static final int WIDTH = 720;
    static final int HEIGHT = 420;
    /** Twice a screen's 72 dpi: sharp on a high-density screen, at a fifth of the pixels print resolution draws. */
    private static final int PNG_DPI = 144;
    private static final int MAX_CURVES = 12;

    /** A chart and the file name it is written under (without extension). */
    record Plot(String name, String title, Chart<?, ?> chart) {
    }

    private Plots() {
    }

    static List<Plot> of(List<ReportRow> rows) {
        List<Plot> plots = new ArrayList<>();
        boolean multiRun = rows.stream().map(ReportRow::run).distinct().count() > 1;
        Set<String> slugs = new HashSet<>();
        List<ReportRow> serving = rows.stream().filter(r -> ServingSpec.isServingCell(r.params())).toList();
        for (ReportTable g : ReportTable.of(rows.stream().filter(r -> !serving.contains(r)).toList())) {
            // a model path of hundreds of characters made "File name too long" and no report at all
            String stem = Cell.fileName(g.name(), "[^A-Za-z0-9._-]");
            String slug = stem;
            for (int n = 2; !slugs.add(slug); n++) { // "a b" and "a_b" must not share plot files
                slug = stem + "-" + n;
            }
            String unit = g.unit();
            if (g.rows().stream().map(r -> r.params().get(CellSpec.BATCH_SIZE)).distinct().count() > 1) {
                plots.add(byBatch(slug + "-latency-vs-batch", g.name() + ": mean latency vs batch size",
                        "mean (" + unit + ")", g.rows(), r -> Units.convert(r.mean(), r.unit(), unit), multiRun));
                if (g.rows().stream().anyMatch(r -> !Double.isNaN(r.samplesPerSecond()))) {
                    plots.add(byBatch(slug + "-throughput-vs-batch", g.name() + ": throughput vs batch size",
                            "samples/s", g.rows(), ReportRow::samplesPerSecond, multiRun));
                }
            }
            plots.add(bars(slug + "-means", g, multiRun));
            String quality = g.rows().stream().flatMap(r -> r.extra().keySet().stream())
                    .filter(m -> m.startsWith("accuracy") || m.startsWith("fidelity")).findFirst().orElse(null);
            if (quality != null) {
                plots.add(quality(slug + "-" + quality.replace('.', '-') + "-vs-latency", g, quality, multiRun));
            }
            if (g.rows().stream().anyMatch(r -> r.source().primary().percentiles().size() > 2)) {
                plots.add(percentiles(slug + "-percentiles", g, multiRun));
            }
        }
        plots.addAll(ModelScaling.plots(rows.stream().filter(r -> !serving.contains(r)).toList()));
        plots.addAll(TrainingTable.plots(rows.stream().map(r -> CellSummary.of(r.source())).toList()));
        plots.addAll(GenerationPlots.of(rows.stream()
                .map(r -> new GenerationPlots.Labelled(r.run(), CellSummary.of(r.source()))).toList()));
        for (ReportTable g : ReportTable.of(serving)) {
            String slug = unique(slugs, Cell.fileName(g.name(), "[^A-Za-z0-9._-]") + "-serving");
            slugs.add(slug);
            List<ReportRow> sweep = g.rows().stream()
                    .filter(r -> !ServingSpec.MAX_RATE.equals(r.params().get(ServingSpec.RATE))).toList();
            if (sweep.size() > 1) {
                plots.add(tailVsOffered(slug + "-tail-vs-rate", g.name(), sweep, multiRun));
                plots.add(hockeyStick(slug + "-latency-vs-throughput", g.name(), sweep, multiRun));
            }
        }
        return plots;
    }

    /**
     * The SLO's percentile (p99 when the cells have no SLO) against the offered rate, a line per setting, with the
     * SLO's bound drawn across: where a line crosses it is the knee.
     */
    private static Plot tailVsOffered(String name, String model, List<ReportRow> rows, boolean multiRun) {
        String slo = rows.stream().map(r -> r.params().getOrDefault(ServingSpec.SLO, Slo.NONE))
                .filter(s -> !s.equals(Slo.NONE)).findFirst().orElse(null);
        Slo parsed = null;
        try {
            parsed = slo == null ? null : Slo.parse(slo);
        } catch (BenchException unreadable) {
            // the run refused it before measuring; a hand-edited file plots without the line
        }
        Slo.Term term = parsed == null ? null : parsed.terms().get(0); // the first term's figure, and its bound
        String label = term == null ? ServingProfiler.percentileLabel(99) : ServingProfiler.label(term);
        String pName = label.substring(ServingProfiler.PREFIX.length());
        String title = model + ": " + pName + " latency vs offered rate";
        XYChart chart = xy(title, "offered rate (req/s)", pName + " latency from intended start (ms)");
        Set<String> varying = varying(rows);
        varying.remove(ServingSpec.RATE);
        addLines(chart, rows, r -> seriesName(r, multiRun, true, varying), r -> r.figure(ServingProfiler.OFFERED),
                r -> r.figure(label));
        double maxX = rows.stream().mapToDouble(r -> r.figure(ServingProfiler.OFFERED)).filter(x -> !Double.isNaN(x))
                .max().orElse(0);
        if (term != null && maxX > 0) {
            chart.addSeries(unique(chart, "SLO " + term), List.of(0.0, maxX), List.of(term.boundMs(), term.boundMs()))
                    .setMarker(SeriesMarkers.NONE);
        }
        PlotAxes.zeroBasedY(chart);
        PlotAxes.zeroBasedX(chart);
        return new Plot(name, title, styled(chart));
    }

    /**
     * The hockey stick: p50 and the tail (p99, or p90 for steps too short for a p99) against the rate actually served,
     * a pair of lines per setting.
     */
    private static Plot hockeyStick(String name, String model, List<ReportRow> rows, boolean multiRun) {
        String title = model + ": latency vs throughput served";
        XYChart chart = xy(title, "served (req/s)", "latency from intended start (ms)");
        Set<String> varying = varying(rows);
        varying.remove(ServingSpec.RATE);
        // p50 and the highest tail percentile the steps had enough requests for (p99 needs 1,000)
        String tail = List.of(99.9, 99.0, 90.0).stream().map(ServingProfiler::percentileLabel)
                .filter(l -> rows.stream().anyMatch(r -> r.extra().containsKey(l))).findFirst()
                .orElse(ServingProfiler.percentileLabel(99));
        for (String label : List.of(ServingProfiler.percentileLabel(50), tail)) {
            String pName = label.substring(ServingProfiler.PREFIX.length());
            addLines(chart, rows, r -> (seriesName(r, multiRun, true, varying) + " " + pName).strip(),
                    r -> r.figure(ServingProfiler.RATE), r -> r.figure(label));
        }
        PlotAxes.zeroBasedY(chart);
        PlotAxes.zeroBasedX(chart);
        return new Plot(name, title, styled(chart));
    }

    /** The params whose value differs between the rows: only those tell the rows' series apart. */
    private static Set<String> varying(List<ReportRow> rows) {
        Set<String> out = new HashSet<>();
        for (ReportRow r : rows) {
            r.params().forEach((k, v) -> {
                if (!v.equals(rows.get(0).params().get(k))) {
                    out.add(k);
                }
            });
        }
        return out;
    }

    /**
     * What tells cells of one group apart, params that are the same in every cell, batch size and model left out:
     * "ort threads=0".
     */
    private static String seriesName(ReportRow r, boolean multiRun, boolean withBatch, Set<String> varying) {
        StringBuilder sb = new StringBuilder(multiRun ? r.run() + " " : "");
        r.params().forEach((k, v) -> {
            if (!k.equals("model") && varying.contains(k) && (withBatch || !k.equals("batchSize"))) {
                sb.append(k.equals("engine") ? v : k + "=" + v).append(' ');
            }
        });
        String s = sb.toString().strip();
        return s.isEmpty() ? r.params().getOrDefault(CellSpec.ENGINE, r.source().shortName()) : s;
    }

    private static Plot byBatch(String name, String title, String yTitle, List<ReportRow> rows,
                                ToDoubleFunction<ReportRow> y, boolean multiRun) {
        XYChart chart = xy(title, "batch size", yTitle);
        Set<String> varying = varying(rows);
        addLines(chart, rows, r -> seriesName(r, multiRun, false, varying),
                r -> Numbers.orNaN(r.params().get(CellSpec.BATCH_SIZE)), y);
        PlotAxes.zeroBasedY(chart);
        return new Plot(name, title, styled(chart));
    }

    /** A line per series name through the rows' points, x ascending; a row without x or y is left out. */
    private static void addLines(XYChart chart, List<ReportRow> rows, Function<ReportRow, String> series,
                                 ToDoubleFunction<ReportRow> x, ToDoubleFunction<ReportRow> y) {
        Map<String, TreeMap<Double, Double>> lines = new LinkedHashMap<>();
        for (ReportRow r : rows) {
            double xv = x.applyAsDouble(r);
            double yv = y.applyAsDouble(r);
            if (!Double.isNaN(xv) && !Double.isNaN(yv)) {
                lines.computeIfAbsent(series.apply(r), k -> new TreeMap<>()).put(xv, yv);
            }
        }
        lines.forEach((name, points) -> chart.addSeries(unique(chart, name), new ArrayList<>(points.keySet()),
                new ArrayList<>(points.values())));
    }

    private static Plot bars(String name, ReportTable g, boolean multiRun) {
        String title = g.name() + ": mean per cell, " + ReportRows.intervalLegend();
        CategoryChart chart = categories(title, "", "mean (" + g.unit() + ")");
        Set<String> varying = varying(g.rows());
        List<String> labels = new ArrayList<>();
        List<Double> means = new ArrayList<>();
        List<Double> errors = new ArrayList<>();
        for (ReportRow r : g.rows()) {
            labels.add(unique(labels, seriesName(r, multiRun, true, varying)));
            means.add(Units.convert(r.mean(), r.unit(), g.unit()));
            double e = Units.convert(r.halfWidth(), r.unit(), g.unit());
            errors.add(Double.isNaN(e) ? 0 : e);
        }
        chart.addSeries("mean", labels, means, errors);
        chart.getStyler().setLegendVisible(false);
        chart.getStyler().setXAxisLabelRotation(labels.size() > 4 ? 45 : 0);
        PlotAxes.zeroBasedY(chart);
        return new Plot(name, title, styled(chart));
    }

    /** Accuracy (or fidelity) against mean latency, a point per cell: what a variant (fp16, int8) costs. */
    private static Plot quality(String name, ReportTable g, String metric, boolean multiRun) {
        String title = g.name() + ": " + metric + " vs latency";
        XYChart chart = xy(title, "mean (" + g.unit() + ")", metric + " (axis not from 0)");
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        Set<String> varying = varying(g.rows());
        for (ReportRow r : g.rows()) {
            ReportRow.Figure q = r.extra().get(metric);
            if (q != null && !Double.isNaN(q.value()) && !Double.isNaN(r.mean())) {
                chart.addSeries(unique(chart, seriesName(r, multiRun, true, varying)),
                        new double[]{Units.convert(r.mean(), r.unit(), g.unit())}, new double[]{q.value()});
            }
        }
        PlotAxes.zeroBasedX(chart);
        return new Plot(name, title, styled(chart));
    }

    /**
     * Each cell's latency against its percentile on a nines axis (p0, p50, p90, p99, p99.9 evenly spaced), up to the
     * highest percentile its calls support (p99 needs 1,000); on a log axis where the curves span a wide range.
     */
    private static Plot percentiles(String name, ReportTable g, boolean multiRun) {
        String title = g.name() + ": latency percentiles";
        XYChart chart = xy(title, "percentile (nines axis)", "latency (" + g.unit() + ")");
        Set<String> varying = varying(g.rows());
        g.rows().stream().filter(r -> r.source().primary().percentiles().size() > 2).limit(MAX_CURVES).forEach(r -> {
            List<Double> xs = new ArrayList<>();
            List<Double> ys = new ArrayList<>();
            r.source().primary().percentiles().keySet().forEach(p -> {
                double v = r.source().primary().supportedPercentile(p);
                if (p < 100.0 && !Double.isNaN(v)) {
                    xs.add(PlotAxes.nines(p));
                    ys.add(Units.convert(v, r.unit(), g.unit()));
                }
            });
            if (!xs.isEmpty()) {
                chart.addSeries(unique(chart, seriesName(r, multiRun, true, varying)), xs, ys);
            }
        });
        PlotAxes.ninesX(chart);
        if (PlotAxes.latencyY(chart)) {
            chart.setYAxisTitle("latency (" + g.unit() + ", log scale)");
        }
        return new Plot(name, title, styled(chart));
    }

    static XYChart xy(String title, String xAxis, String yAxis) {
        return new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(xAxis).yAxisTitle(yAxis).build();
    }

    static CategoryChart categories(String title, String xAxis, String yAxis) {
        return new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(xAxis).yAxisTitle(yAxis)
                .build();
    }

    /** The same look in every locale: a plain number format, the legend under the plot. */
    static <C extends Chart<?, ?>> C styled(C chart) {
        Styler st = chart.getStyler();
        st.setLocale(Locale.ROOT);
        st.setDecimalPattern("#,##0.###");
        st.setLegendPosition(Styler.LegendPosition.OutsideS);
        st.setChartBackgroundColor(Color.WHITE);
        return chart;
    }

    /** XChart refuses two series of one name. */
    static String unique(Chart<?, ?> chart, String name) {
        String n = name;
        for (int i = 2; chart.getSeries(n) != null; i++) {
            n = name + " #" + i;
        }
        return n;
    }

    /** {@code name}, or with " #2", " #3" ... when {@code taken} has it. */
    static String unique(Collection<String> taken, String name) {
        String n = name;
        for (int i = 2; taken.contains(n); i++) {
            n = name + " #" + i;
        }
        return n;
    }

    /** Each plot as name.svg and name.png (high DPI) in folder. */
    static List<Path> writeFiles(List<Plot> plots, Path folder) throws IOException {
        Files.createDirectories(folder);
        List<Path> files = new ArrayList<>();
        for (Plot p : plots) {
            Path svg = folder.resolve(p.name() + ".svg");
            AtomicFile.write(svg, out -> VectorGraphicsEncoder.saveVectorGraphic(p.chart(), out,
                    VectorGraphicsEncoder.VectorGraphicsFormat.SVG));
            Path png = folder.resolve(p.name() + ".png");
            AtomicFile.writeVia(png, tmp -> pngTo(p, tmp));
            files.add(svg);
            files.add(png);
        }
        return files;
    }

    private static void pngTo(Plot p, Path file) throws IOException {
        BitmapEncoder.saveBitmapWithDPI(p.chart(), file.toString(), BitmapEncoder.BitmapFormat.PNG, PNG_DPI);
    }
}

package dev.inferbench.report;

import dev.inferbench.ByteUnits;
import dev.inferbench.cell.Cell;
import dev.inferbench.model.stats.ActivationMemory;
import dev.inferbench.model.stats.LayerName;
import dev.inferbench.profile.ActivationPass;
import dev.inferbench.profile.LayerTimes;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The per-layer section's charts, per model: live activation memory over the nodes in execution order (a line per
 * batch, each peak marked) and, where ORT profiled a cell, its time per module.
 */
final class LayerPlots {

    private LayerPlots() {
    }

    /** {@code plots} and then the section's own. */
    static List<Plots.Plot> with(List<Plots.Plot> plots, LayerSection section) {
        List<Plots.Plot> all = new ArrayList<>(plots);
        for (LayerSection.Part p : section.parts()) {
            String slug = Cell.fileName(p.title(), "[^A-Za-z0-9._-]");
            if (!p.entries().isEmpty()) {
                all.add(activation(slug + "-activation-by-node", p));
            }
            if (p.times() != null && !p.times().modules().isEmpty()) {
                all.add(timeByModule(slug + "-time-by-module", p.title() + " at batch " + p.timesBatch(), p.times()));
            }
        }
        return all;
    }

    private static Plots.Plot activation(String name, LayerSection.Part p) {
        ActivationMemory first = p.entries().get(0).memory();
        String title = String.format(Locale.ROOT, "%s: live activation memory by node (peak %.2f MiB at batch %d)",
                p.title(), ByteUnits.mib(first.peakBytes()), first.batch());
        XYChart chart = Plots.xy(title, "node, in execution order", "live intermediates (MiB)");
        boolean seqLens = p.entries().stream().map(e -> e.memory().seqLen()).distinct().count() > 1;
        boolean precisions = p.entries().stream().map(ActivationPass.Entry::precision).distinct().count() > 1;
        List<Double> peakX = new ArrayList<>();
        List<Double> peakY = new ArrayList<>();
        for (ActivationPass.Entry e : p.entries()) {
            ActivationMemory m = e.memory();
            String label = "batch " + m.batch() + (seqLens && m.sequence() ? ", seqLen " + m.seqLen() : "")
                    + (precisions ? ", " + e.precision() : "");
            List<Double> xs = new ArrayList<>();
            List<Double> ys = new ArrayList<>();
            m.layers().forEach(l -> {
                xs.add((double) l.index());
                ys.add(ByteUnits.mib(l.liveBytes()));
            });
            if (xs.isEmpty() || chart.getSeries(label) != null) {
                continue;
            }
            chart.addSeries(label, xs, ys).setMarker(SeriesMarkers.NONE);
            if (m.peakLayer() != null) {
                peakX.add((double) m.peakIndex());
                peakY.add(ByteUnits.mib(m.peakBytes()));
            }
        }
        if (!peakX.isEmpty()) {
            XYSeries peaks = chart.addSeries("peaks (at batch " + first.batch() + ": "
                    + LayerName.layer(first.peakLayer().node()) + ")", peakX, peakY);
            peaks.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            peaks.setMarker(SeriesMarkers.DIAMOND);
        }
        chart.getStyler().setYAxisMin(0.0);
        // hundreds of nodes: XChart's own ticks run into each other, so the axis ends on a round step and only
        // multiples of it are labelled
        int nodes = p.entries().stream().mapToInt(e -> e.memory().layers().size()).max().orElse(1);
        long step = roundStep(nodes / 10.0);
        chart.getStyler().setXAxisMin(0.0);
        chart.getStyler().setXAxisMax((double) ((nodes + step - 1) / step * step));
        chart.setCustomXAxisTickLabelsFormatter(x -> Math.round(x) % step == 0 ? Long.toString(Math.round(x)) : "");
        return new Plots.Plot(name, title, Plots.styled(chart));
    }

    /** 1, 2 or 5 times a power of ten, the nearest at or above {@code raw}. */
    static long roundStep(double raw) {
        long pow = 1;
        while (pow * 10 <= raw) {
            pow *= 10;
        }
        for (long m : new long[]{1, 2, 5, 10}) {
            if (m * pow >= raw) {
                return m * pow;
            }
        }
        return 10 * pow;
    }

    private static Plots.Plot timeByModule(String name, String model, LayerTimes t) {
        String title = model + ": kernel time per module (ORT's profile)";
        CategoryChart chart = Plots.categories(title, "", "ms per run");
        List<String> labels = new ArrayList<>();
        List<Double> ms = new ArrayList<>();
        t.modules().stream().limit(LayerSection.TOP).forEach(m -> {
            labels.add(LayerName.shown(m.module()));
            ms.add(m.msPerRun());
        });
        chart.addSeries("ms per run", labels, ms);
        chart.getStyler().setLegendVisible(false);
        chart.getStyler().setXAxisLabelRotation(45);
        chart.getStyler().setXAxisTickMarkSpacingHint(20); // XChart skips every other category label otherwise
        chart.getStyler().setYAxisMin(0.0);
        return new Plots.Plot(name, title, Plots.styled(chart));
    }
}

package dev.inferbench.report;

import dev.inferbench.metrics.MemoryProfiler;
import dev.inferbench.results.CellSummary;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Memory per sample, for each setting measured at two or more batch sizes: the steady resident set
 * ({@value MemoryProfiler#RSS}, the end of each measured iteration, averaged; the peak where a run has no steady
 * figure) fitted as {@code fixed + perSample x batch} by least squares, so that what grows with the batch (inputs,
 * activations, outputs, as the engine's allocator keeps them) is separated from what does not (the JVM, the runtime,
 * the weights). The peak is not used when the steady figure is there: it holds the model load's transient (bert_base:
 * 60-130 MiB above the steady set, varying with the batch by more than the batch's own memory).
 * With three or more batch sizes the line is checked: linear when every batch's peak lies within
 * {@value #LINEAR_PERCENT} % of it, and the memory each added sample costs (between neighbouring batch sizes) is
 * called constant when its largest and smallest values are within {@value #CONSTANT_PERCENT} % of each other.
 * A setting whose fitted memory grows less than {@value #FLOOR_MIB} MiB over its batch sizes gets no line.
 */
final class MemoryScaling {
    static final double LINEAR_PERCENT = 5;
    static final double CONSTANT_PERCENT = 25;
    /** Below this growth from the smallest to the largest batch (MiB) the batch's memory is lost in the allocator's noise. */
    static final double FLOOR_MIB = 2;

    private MemoryScaling() {
    }

    /** A fitted line: MiB per sample and MiB at batch 0. */
    record Fit(double perSample, double fixed) {
        double at(double batch) {
            return fixed + perSample * batch;
        }
    }

    static List<String> lines(List<CellSummary> cells) {
        List<String> out = new ArrayList<>();
        for (List<CellSummary> series : BatchSeries.of(cells, c -> !Double.isNaN(peak(c)))) {
            double[] x = series.stream().mapToDouble(BatchSeries::batch).toArray();
            double[] y = series.stream().mapToDouble(MemoryScaling::peak).toArray();
            Fit f = fit(x, y);
            // a tiny model's batch takes less than the allocator's own noise: no line, rather than a negative per
            // sample figure (mlp-tiny read -0.25 MiB per sample)
            if (f.perSample() * (x[x.length - 1] - x[0]) >= FLOOR_MIB) {
                out.add(line(series, x, y, f));
            }
        }
        return out;
    }

    static double peak(CellSummary c) {
        double steady = c.extras().getOrDefault(MemoryProfiler.RSS, Double.NaN);
        return Double.isNaN(steady) ? c.extras().getOrDefault(MemoryProfiler.RSS_PEAK, Double.NaN) : steady;
    }

    static Fit fit(double[] x, double[] y) {
        double mx = 0;
        double my = 0;
        for (int i = 0; i < x.length; i++) {
            mx += x[i] / x.length;
            my += y[i] / y.length;
        }
        double sxy = 0;
        double sxx = 0;
        for (int i = 0; i < x.length; i++) {
            sxy += (x[i] - mx) * (y[i] - my);
            sxx += (x[i] - mx) * (x[i] - mx);
        }
        double slope = sxy / sxx;
        return new Fit(slope, my - slope * mx);
    }

    private static String line(List<CellSummary> byBatch, double[] x, double[] y, Fit f) {
        int n = byBatch.size();
        StringBuilder peaks = new StringBuilder();
        for (int i = 0; i < n; i++) {
            peaks.append(i == 0 ? "" : ", ").append((int) x[i]).append(": ").append(SummaryTable.num(y[i]));
        }
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "memory: %s: %s MiB per sample + %s MiB fixed"
                        + " (resident set by batch %s MiB", BatchSeries.who(byBatch.get(0)), SummaryTable.num(f.perSample()),
                SummaryTable.num(f.fixed()), peaks));
        if (n < 3) {
            return sb.append("; two batch sizes: a line through both, linearity not checked)").toString();
        }
        double worst = 0;
        for (int i = 0; i < n; i++) {
            worst = Math.max(worst, Math.abs(y[i] - f.at(x[i])) / y[i] * 100);
        }
        sb.append(String.format(Locale.ROOT, worst <= LINEAR_PERCENT ? "; linear: every batch within %.1f %% of the line"
                : "; not linear: a batch %.1f %% off the line", worst));
        StringBuilder steps = new StringBuilder();
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (int i = 1; i < n; i++) {
            double step = (y[i] - y[i - 1]) / (x[i] - x[i - 1]);
            lo = Math.min(lo, step);
            hi = Math.max(hi, step);
            steps.append(i == 1 ? "" : ", ").append((int) x[i - 1]).append(" to ").append((int) x[i]).append(": ")
                    .append(SummaryTable.num(step));
        }
        boolean constant = lo > 0 && hi <= lo * (1 + CONSTANT_PERCENT / 100);
        return sb.append("; per added sample ").append(steps).append(" MiB, ")
                .append(constant ? "constant" : "not constant").append(")").toString();
    }
}

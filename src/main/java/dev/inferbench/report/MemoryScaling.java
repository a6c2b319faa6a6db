package dev.inferbench.report;

import dev.inferbench.metrics.MemoryProfiler;
import dev.inferbench.results.CellSummary;
import dev.inferbench.stats.ForkMeans;
import dev.inferbench.stats.Interval;
import dev.inferbench.stats.LineFit;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Memory per sample, for each setting measured at two or more batch sizes: the steady resident set
 * ({@value MemoryProfiler#RSS}, its time average over the measured iterations; the peak where an older run has no
 * steady figure) fitted as {@code fixed + perSample x batch} by least squares, so that what grows with the batch
 * (inputs, activations, outputs, as the engine's allocator keeps them) is separated from what does not (the JVM, the
 * runtime, the weights). The slope comes with its 95 % interval from the cells' own intervals over forks
 * ({@link LineFit#slope}). With three or more batch sizes the line is checked against what the batch adds, not
 * against the whole set (a few MiB off a 650 MiB set is 1 %, and would pass however the batch's memory behaved):
 * linear when every batch lies within {@value #LINEAR_PERCENT} % of the batch effect (the line's rise from the
 * smallest batch to the largest) of the line; and the memory each added sample costs (between neighbouring batch
 * sizes) is called constant when every step is above 0 and the largest is within {@value #CONSTANT_PERCENT} % of
 * the smallest. A setting whose fitted memory grows less than {@value #FLOOR_MIB} MiB over its batch sizes gets no line.
 */
final class MemoryScaling {
    static final double LINEAR_PERCENT = 10;
    static final double CONSTANT_PERCENT = 25;
    /** Below this growth from the smallest to the largest batch (MiB) the batch's memory is lost in the allocator's noise. */
    static final double FLOOR_MIB = 2;

    private MemoryScaling() {
    }

    static List<String> lines(List<CellSummary> cells) {
        List<String> out = new ArrayList<>();
        for (List<CellSummary> series : BatchSeries.of(cells, c -> !Double.isNaN(steady(c).estimate()))) {
            double[] x = series.stream().mapToDouble(BatchSeries::batch).toArray();
            Interval[] y = series.stream().map(MemoryScaling::steady).toArray(Interval[]::new);
            Interval slope = LineFit.slope(x, y, ForkMeans.DEFAULT_CONFIDENCE);
            // a tiny model's batch takes less than the allocator's own noise: no line, rather than a negative per
            // sample figure (mlp-tiny read -0.25 MiB per sample)
            if (slope.estimate() * (x[x.length - 1] - x[0]) >= FLOOR_MIB) {
                out.add(line(series, x, y, slope, cells));
            }
        }
        return out;
    }

    /** The cell's steady resident set with its interval over forks; the peak (no interval) for runs without it. */
    static Interval steady(CellSummary c) {
        double rss = c.extras().getOrDefault(MemoryProfiler.RSS, Double.NaN);
        if (Double.isNaN(rss)) {
            double peak = c.extras().getOrDefault(MemoryProfiler.RSS_PEAK, Double.NaN);
            return new Interval(peak, Double.NaN, Double.NaN, ForkMeans.DEFAULT_CONFIDENCE, c.mean().forks());
        }
        double hw = c.extras().getOrDefault(CellSummary.halfWidth(MemoryProfiler.RSS), Double.NaN);
        return new Interval(rss, rss - hw, rss + hw, ForkMeans.DEFAULT_CONFIDENCE, c.mean().forks());
    }

    private static String line(List<CellSummary> byBatch, double[] x, Interval[] y, Interval slope,
                               List<CellSummary> all) {
        int n = byBatch.size();
        double[] ys = new double[n];
        StringBuilder sets = new StringBuilder();
        for (int i = 0; i < n; i++) {
            ys[i] = y[i].estimate();
            sets.append(i == 0 ? "" : ", ").append((int) x[i]).append(": ").append(SummaryTable.num(ys[i]));
        }
        LineFit f = LineFit.of(x, ys);
        String interval = slope.known() ? " [" + SummaryTable.num(slope.lower()) + ", " + SummaryTable.num(slope.upper())
                + "]" : " [n/a: one fork]";
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "memory: %s: %s%s MiB per sample + %s MiB fixed"
                        + " (resident set by batch %s MiB", BatchSeries.who(byBatch.get(0), all), SummaryTable.num(f.slope()),
                interval, SummaryTable.num(f.intercept()), sets));
        if (n < 3) {
            return sb.append("; two batch sizes: a line through both, linearity not checked)").toString();
        }
        double effect = f.slope() * (x[n - 1] - x[0]);
        int worstAt = 0;
        double worst = 0;
        for (int i = 0; i < n; i++) {
            double off = Math.abs(ys[i] - f.at(x[i])) / effect * 100;
            if (off > worst) {
                worst = off;
                worstAt = i;
            }
        }
        sb.append(String.format(Locale.ROOT, worst <= LINEAR_PERCENT
                ? "; linear: every batch within %1$.0f %% of the batch effect (%2$s MiB from batch %3$d to %5$d) of the line"
                : "; not linear: batch %4$d is %1$.0f %% of the batch effect (%2$s MiB from batch %3$d to %5$d) off the line",
                worst, SummaryTable.num(effect), (int) x[0], (int) x[worstAt], (int) x[n - 1]));
        StringBuilder steps = new StringBuilder();
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (int i = 1; i < n; i++) {
            double step = (ys[i] - ys[i - 1]) / (x[i] - x[i - 1]);
            lo = Math.min(lo, step);
            hi = Math.max(hi, step);
            steps.append(i == 1 ? "" : ", ").append((int) x[i - 1]).append(" to ").append((int) x[i]).append(": ")
                    .append(SummaryTable.num(step));
        }
        boolean constant = lo > 0 && hi <= lo * (1 + CONSTANT_PERCENT / 100);
        return sb.append("; per added sample ").append(steps).append(" MiB, ")
                .append(constant ? "constant" : lo <= 0 ? "not constant: the set fell or held between two batches"
                        : "not constant").append(")").toString();
    }
}

package dev.inferbench.findings;

import dev.inferbench.metrics.MemoryProfiler;
import dev.inferbench.results.CellSummary;
import dev.inferbench.stats.ForkMeans;
import dev.inferbench.stats.Interval;
import dev.inferbench.stats.LineFit;

import java.util.ArrayList;
import java.util.List;

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
 * the smallest. A setting whose fitted memory grows less than {@value #FLOOR_MIB} MiB over its batch sizes has none.
 *
 * @param byBatch  the setting's cells in batch order
 * @param batches  their batch sizes
 * @param resident their steady resident sets (MiB)
 * @param slope    MiB per sample with its interval over forks
 * @param fit      the least-squares line through {@code resident}
 */
public record MemoryScaling(List<CellSummary> byBatch, double[] batches, double[] resident, Interval slope,
                            LineFit fit) {
    public static final double LINEAR_PERCENT = 10;
    public static final double CONSTANT_PERCENT = 25;
    /** Below this growth from the smallest to the largest batch (MiB) the batch's memory is lost in the allocator's noise. */
    public static final double FLOOR_MIB = 2;

    /** How the memory each added sample costs behaves between neighbouring batch sizes. */
    public enum Steps { CONSTANT, NOT_CONSTANT, FELL_OR_HELD }

    public static List<MemoryScaling> of(List<CellSummary> cells) {
        List<MemoryScaling> out = new ArrayList<>();
        for (List<CellSummary> series : BatchSeries.of(cells, c -> !Double.isNaN(steady(c).estimate()))) {
            double[] x = series.stream().mapToDouble(BatchSeries::batch).toArray();
            Interval[] y = series.stream().map(MemoryScaling::steady).toArray(Interval[]::new);
            Interval slope = LineFit.slope(x, y, ForkMeans.DEFAULT_CONFIDENCE);
            // a tiny model's batch takes less than the allocator's own noise: nothing, rather than a negative per
            // sample figure (mlp-tiny read -0.25 MiB per sample)
            if (slope.estimate() * (x[x.length - 1] - x[0]) >= FLOOR_MIB) {
                double[] ys = new double[y.length];
                for (int i = 0; i < ys.length; i++) {
                    ys[i] = y[i].estimate();
                }
                out.add(new MemoryScaling(series, x, ys, slope, LineFit.of(x, ys)));
            }
        }
        return out;
    }

    /** The cell's steady resident set with its interval over forks; the peak (no interval) for runs without it. */
    public static Interval steady(CellSummary c) {
        double rss = c.extras().getOrDefault(MemoryProfiler.RSS, Double.NaN);
        if (Double.isNaN(rss)) {
            double peak = c.extras().getOrDefault(MemoryProfiler.RSS_PEAK, Double.NaN);
            return new Interval(peak, Double.NaN, Double.NaN, ForkMeans.DEFAULT_CONFIDENCE, c.mean().forks());
        }
        double hw = c.extras().getOrDefault(CellSummary.halfWidth(MemoryProfiler.RSS), Double.NaN);
        return new Interval(rss, rss - hw, rss + hw, ForkMeans.DEFAULT_CONFIDENCE, c.mean().forks());
    }

    /** Whether there are batch sizes enough (three) to check the line. */
    public boolean checked() {
        return batches.length >= 3;
    }

    /** The batch effect: the line's rise from the smallest batch to the largest (MiB). */
    public double effect() {
        return fit.slope() * (batches[batches.length - 1] - batches[0]);
    }

    /** The index of the batch farthest off the line (the first such; 0 when every batch is on it). */
    public int worstAt() {
        return (int) worst()[0];
    }

    /** How far the farthest batch is off the line, in percent of the batch effect. */
    public double worstPercent() {
        return worst()[1];
    }

    private double[] worst() {
        int worstAt = 0;
        double worst = 0;
        for (int i = 0; i < batches.length; i++) {
            double off = Math.abs(resident[i] - fit.at(batches[i])) / effect() * 100;
            if (off > worst) {
                worst = off;
                worstAt = i;
            }
        }
        return new double[]{worstAt, worst};
    }

    public boolean linear() {
        return worstPercent() <= LINEAR_PERCENT;
    }

    /** The memory each added sample costs between neighbouring batch sizes (MiB), one fewer than the batches. */
    public double[] steps() {
        double[] steps = new double[batches.length - 1];
        for (int i = 1; i < batches.length; i++) {
            steps[i - 1] = (resident[i] - resident[i - 1]) / (batches[i] - batches[i - 1]);
        }
        return steps;
    }

    public Steps stepsAre() {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (double step : steps()) {
            lo = Math.min(lo, step);
            hi = Math.max(hi, step);
        }
        return lo > 0 && hi <= lo * (1 + CONSTANT_PERCENT / 100) ? Steps.CONSTANT
                : lo <= 0 ? Steps.FELL_OR_HELD : Steps.NOT_CONSTANT;
    }
}

package dev.inferbench.compare;

import java.util.List;

/**
 * One metric of one cell as the statistics need it: per fork, its iterations' values; for percentiles of timed
 * calls also each fork's histogram of calls.
 *
 * @param name       "time" (the primary metric of time modes), "throughput", "p50", "p99", or a secondary result's
 *                   label ("samples", "mem.rss.peak" ...)
 * @param percentile for p50/p99: 50 or 99; NaN for means
 * @param histograms for percentiles: per fork {@code [value, count]} pairs; empty otherwise
 */
public record MetricSeries(String name, String unit, double[][] forks, double percentile, List<double[][]> histograms) {

    public static MetricSeries mean(String name, String unit, double[][] forks) {
        return new MetricSeries(name, unit, forks, Double.NaN, List.of());
    }

    public boolean isPercentile() {
        return !Double.isNaN(percentile);
    }
}

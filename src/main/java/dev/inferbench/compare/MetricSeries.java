package dev.inferbench.compare;

import dev.inferbench.stats.Percentiles;

import java.util.Arrays;
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

    /** The timed calls behind a percentile: per fork, the counts of its histogram. */
    public long[] callsPerFork() {
        return histograms.stream().mapToLong(h -> (long) Arrays.stream(h).mapToDouble(b -> b[1]).sum()).toArray();
    }

    /**
     * Whether the series is more than the extremes of too few calls: a mean always is; a percentile when every fork
     * has the calls it needs ({@link Percentiles#callsFor}: 1,000 for p99), since compare takes one value per fork.
     */
    public boolean supportedPerFork() {
        return !isPercentile() || Arrays.stream(callsPerFork()).allMatch(n -> n >= Percentiles.callsFor(percentile));
    }
}

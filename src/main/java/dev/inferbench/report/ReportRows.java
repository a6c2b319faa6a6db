package dev.inferbench.report;

import dev.inferbench.stats.Percentiles;
import dev.inferbench.results.MetricCatalogue;
import dev.inferbench.results.MachineState;
import dev.inferbench.results.jmh.MeasuredCell;
import dev.inferbench.results.jmh.JmhMetric;
import dev.inferbench.cell.Cell;
import dev.inferbench.stats.ForkMeans;
import dev.inferbench.stats.Interval;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Turns JMH cells into report rows: the interval, the sample count and the stability warnings. */
public final class ReportRows {
    /** The batch-aware throughput metric (samples/s) of InferenceBenchmark. */
    public static final String SAMPLES = "samples";
    static final int MIN_FORKS = 3;
    static final double CONFIDENCE = ForkMeans.DEFAULT_CONFIDENCE;
    static final double MAX_FORK_SPREAD = 0.10;

    private ReportRows() {
    }

    public static ReportRow of(String run, MeasuredCell c) {
        JmhMetric p = c.primary();
        Interval interval = interval(c);
        Map<String, ReportRow.Figure> extra = new LinkedHashMap<>();
        c.secondary().forEach((name, m) -> {
            if (!MeasuredCell.isPercentileEntry(name) && !MachineState.isMachineMetric(name)) {
                extra.put(name, new ReportRow.Figure(MetricCatalogue.forkRule(name).value(m), m.unit()));
            }
        });
        long samples = p.sampleCount();
        int forks = p.forkCount();
        return new ReportRow(run, c.shortName(), c.mode(), new Cell(c.benchmark(), c.mode(), c.params()).id(),
                c.params(), p.unit(), p.supportedPercentile(50.0), p.supportedPercentile(90.0), p.supportedPercentile(99.0),
                Double.isNaN(interval.estimate()) ? p.score() : interval.estimate(), interval.halfWidth(), extra, forks,
                samples, warnings(c, samples, forks), c);
    }

    /** The one place the report's interval comes from: the stats package's interval over the cell's fork means. */
    static Interval interval(MeasuredCell c) {
        return ForkMeans.interval(c.callMeans(), CONFIDENCE);
    }

    /** "95% interval over fork means", for the reports' legends. */
    static String intervalLegend() {
        return String.format(Locale.ROOT, "%.0f%% interval over fork means", CONFIDENCE * 100);
    }

    private static List<String> warnings(MeasuredCell c, long samples, int forks) {
        JmhMetric m = c.primary();
        List<String> w = new ArrayList<>();
        if (samples < Percentiles.callsFor(99.0) && !Double.isNaN(m.percentile(99.0))) {
            w.add(samples + " calls: p99 n/a (needs " + Percentiles.callsFor(99.0) + "+)");
        }
        if (forks < MIN_FORKS) {
            w.add(forks + (forks == 1 ? " fork" : " forks") + " (want " + MIN_FORKS + "+)");
        }
        double spread = forkSpread(c.callMeans());
        if (spread > MAX_FORK_SPREAD) {
            w.add(String.format(Locale.ROOT, "fork means spread %.0f%% (over %.0f%%)", spread * 100, MAX_FORK_SPREAD * 100));
        }
        return List.copyOf(w);
    }

    /** (max - min) / mean of the fork means; 0 with fewer than two forks. */
    static double forkSpread(double[][] callMeans) {
        double[] forkMeans = Arrays.stream(ForkMeans.of(callMeans)).filter(d -> !Double.isNaN(d)).toArray();
        if (forkMeans.length < 2) {
            return 0;
        }
        double min = Arrays.stream(forkMeans).min().orElse(0);
        double max = Arrays.stream(forkMeans).max().orElse(0);
        double mean = Arrays.stream(forkMeans).average().orElse(1);
        return (max - min) / mean;
    }
}

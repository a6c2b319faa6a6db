package dev.inferbench.report;

import dev.inferbench.stats.Percentiles;
import dev.inferbench.results.CallFigures;
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
import java.util.stream.DoubleStream;

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
        return of(run, c, CallFigures.DEFAULT_PERCENTILES);
    }

    /**
     * The row with the timed calls' figures at the percentiles a user chose ({@code --percentiles}); with the default
     * ({@link CallFigures#DEFAULT_PERCENTILES}), p90 too where enough calls stand behind it.
     */
    public static ReportRow of(String run, MeasuredCell c, double[] percentiles) {
        JmhMetric p = c.primary();
        Interval interval = interval(c);
        Map<String, ReportRow.Figure> extra = new LinkedHashMap<>();
        c.secondary().forEach((name, m) -> {
            if (!MeasuredCell.isPercentileEntry(name) && !MachineState.isMachineMetric(name)) {
                extra.put(name, new ReportRow.Figure(MetricCatalogue.forkRule(name).value(m), m.unit()));
            }
        });
        Map<String, Double> calls = new LinkedHashMap<>(CallFigures.of(c, percentiles));
        double p90 = p.supportedPercentile(90.0);
        if (CallFigures.isDefault(percentiles) && !Double.isNaN(p90)) {
            calls.put("p90", p90);
        }
        long samples = p.sampleCount();
        int forks = p.forkCount();
        return new ReportRow(run, c.shortName(), c.mode(), new Cell(c.benchmark(), c.mode(), c.params()).id(),
                c.params(), p.unit(), calls,
                Double.isNaN(interval.estimate()) ? p.score() : interval.estimate(), interval.halfWidth(), extra, forks,
                samples, warnings(c, samples, forks), c);
    }

    /**
     * The percentiles a report's tables and exports show: those a user chose, else the default and p90 (which JMH
     * gives for every SampleTime cell).
     */
    static double[] percentiles(double[] chosen) {
        return CallFigures.isDefault(chosen) ? REPORT_DEFAULT : chosen;
    }

    private static final double[] REPORT_DEFAULT = DoubleStream.concat(Arrays.stream(CallFigures.DEFAULT_PERCENTILES),
            DoubleStream.of(90)).sorted().toArray();

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

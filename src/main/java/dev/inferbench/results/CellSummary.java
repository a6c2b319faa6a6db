package dev.inferbench.results;

import dev.inferbench.metrics.MemoryProfiler;
import dev.inferbench.serve.ServingProfiler;
import dev.inferbench.metrics.SamplesProfiler;
import dev.inferbench.stats.ForkMeans;
import dev.inferbench.stats.Interval;
import dev.inferbench.tail.TailMetrics;
import dev.inferbench.results.jmh.MeasuredCell;
import dev.inferbench.results.jmh.JmhMetric;
import org.openjdk.jmh.annotations.Mode;

import java.util.LinkedHashMap;
import java.util.Set;
import java.util.List;
import java.util.HashSet;
import java.util.HashMap;
import java.util.ArrayList;
import java.util.Map;

/**
 * The figures of one benchmark cell: percentiles of all timed calls, the mean with its fork-level confidence
 * interval ({@link ForkMeans}: forks are the unit, not iterations), batch-aware samples/s, and {@code extras}: the
 * secondary metrics by label (in their own units: memory MiB, load time ms, gc.alloc.rate.norm B/op), plus the
 * primary score's {@link CallFigures} (its unit: min, the percentiles, max, sd; p95 only with 200 calls behind it),
 * and {@code p90} for single-shot cells, whose samples are one per fork.
 */
public record CellSummary(String benchmark, Map<String, String> params, String unit, double p50, double p99,
                          Interval mean, double samplesPerSecond, Map<String, Double> extras) {

    public CellSummary(String benchmark, Map<String, String> params, String unit, double p50, double p99,
                       Interval mean, double samplesPerSecond) {
        this(benchmark, params, unit, p50, p99, mean, samplesPerSecond, Map.of());
    }

    /**
     * The figures of a cell from the one cell model every reader uses ({@link MeasuredCell}, read from a run's
     * jmh-result.json): percentiles as the file gives them (JMH's, over all timed calls of all forks), the mean's
     * interval from the per-fork iteration means.
     */
    public static CellSummary of(MeasuredCell cell) {
        return of(cell, DEFAULT_PERCENTILES);
    }

    /**
     * The same with the percentiles a user chose ({@code --percentiles}) in {@code extras} as {@code p50},
     * {@code p99.9} (see {@link CallFigures}); with the default, {@code p90} too for single-shot cells.
     */
    public static CellSummary of(MeasuredCell cell, double[] percentiles) {
        JmhMetric primary = cell.primary();
        JmhMetric samples = cell.secondary().get(SamplesProfiler.LABEL);
        Map<String, Double> extras = new LinkedHashMap<>();
        cell.secondary().forEach((name, m) -> extras.put(name, MetricCatalogue.forkRule(name).value(m)));
        for (String name : List.of(MemoryProfiler.RSS, MemoryProfiler.RSS_GROWTH, MemoryProfiler.RSS_GROWN,
                MemoryProfiler.RSS_GROWN_EARLY)) {
            // the steady set and its growth: intervals with forks as the unit (growth is one figure per fork, from the
            // readings within its measured iterations), for memory per sample and the growth verdict
            JmhMetric m = cell.secondary().get(name);
            if (m != null) {
                Interval i = ForkMeans.interval(MetricCatalogue.forkRule(name).forks(m), ForkMeans.DEFAULT_CONFIDENCE);
                extras.put(name, i.estimate());
                extras.put(halfWidth(name), i.halfWidth());
            }
        }
        JmhMetric sustainable = cell.secondary().get(ServingProfiler.SUSTAINABLE);
        if (sustainable != null) {
            // the rate each fork's search settled on: its interval, forks as the unit
            extras.put(SUSTAINABLE_HALF_WIDTH, ForkMeans.interval(MetricCatalogue.forkRule(ServingProfiler.SUSTAINABLE)
                    .forks(sustainable),
                    ForkMeans.DEFAULT_CONFIDENCE).halfWidth());
        }
        cell.secondary().forEach((name, m) -> {
            MetricEntry e = MetricCatalogue.find(name);
            if (name.startsWith(TailMetrics.PREFIX)) {
                // the tail table's shares and counterfactual p99s: their intervals over the forks
                extras.put(halfWidth(name), ForkMeans.interval(MetricCatalogue.forkRule(name).forks(m),
                        ForkMeans.DEFAULT_CONFIDENCE).halfWidth());
            }
            if (e != null && e.gated()) {
                // what the gate takes besides the primary (a generation cell's TTFT and TPOT): their intervals, forks
                // as the unit, as the summary shows them
                extras.put(halfWidth(name), ForkMeans.interval(e.forks().forks(m), ForkMeans.DEFAULT_CONFIDENCE)
                        .halfWidth());
            }
        });
        if (cell.mode().equals(Mode.SingleShotTime.shortLabel()) && CallFigures.isDefault(percentiles)) {
            extras.put(P90, primary.supportedPercentile(90.0));
        }
        extras.putAll(CallFigures.of(cell, percentiles));
        return new CellSummary(cell.shortName(), cell.params(), primary.unit(), primary.supportedPercentile(50.0),
                primary.supportedPercentile(99.0), ForkMeans.interval(cell.callMeans(), ForkMeans.DEFAULT_CONFIDENCE),
                samples == null ? Double.NaN : samples.score(), extras);
    }

    /**
     * The figures of a run's cells; a benchmark measured in several modes ({@code -bm avgt,sample}) is named with its
     * mode ({@code InferenceBenchmark.infer [avgt]}), so that its rows can be told apart.
     */
    public static List<CellSummary> of(List<MeasuredCell> cells) {
        return of(cells, DEFAULT_PERCENTILES);
    }

    /** The figures of a run's cells with the percentiles a user chose. */
    public static List<CellSummary> of(List<MeasuredCell> cells, double[] percentiles) {
        Map<String, Set<String>> modes = new HashMap<>();
        cells.forEach(c -> modes.computeIfAbsent(c.shortName(), k -> new HashSet<>()).add(c.mode()));
        List<CellSummary> out = new ArrayList<>();
        for (MeasuredCell c : cells) {
            CellSummary s = of(c, percentiles);
            out.add(modes.get(c.shortName()).size() < 2 ? s : new CellSummary(s.benchmark() + " [" + c.mode() + "]",
                    s.params(), s.unit(), s.p50(), s.p99(), s.mean(), s.samplesPerSecond(), s.extras()));
        }
        return out;
    }

    /** The percentiles shown unless a user chooses others ({@link CallFigures#DEFAULT_PERCENTILES}). */
    public static final double[] DEFAULT_PERCENTILES = CallFigures.DEFAULT_PERCENTILES;
    public static final String P50 = "p50";
    public static final String P90 = "p90";
    public static final String MIN = CallFigures.MIN;
    /** The standard deviation of the timed calls, all forks pooled. */
    public static final String SD = CallFigures.SD;
    public static final String P95 = "p95";
    public static final String MAX = CallFigures.MAX;
    /** The 95 % half-width of a serving cell's sustainable rate (req/s), over its forks' searches. */
    public static final String SUSTAINABLE_HALF_WIDTH = halfWidth(ServingProfiler.SUSTAINABLE);

    /** Where extras hold the 95 % half-width of {@code metric} over the forks (the sustainable rate, memory growth). */
    public static String halfWidth(String metric) {
        return metric + ".hw";
    }
}

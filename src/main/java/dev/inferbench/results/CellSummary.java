package dev.inferbench.results;

import dev.inferbench.metrics.SamplesProfiler;
import dev.inferbench.stats.ForkMeans;
import dev.inferbench.stats.Interval;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.util.Statistics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
/**
 * The figures of one benchmark cell: percentiles of all timed calls, the mean with its fork-level confidence
 * interval ({@link ForkMeans}: forks are the unit, not iterations), batch-aware samples/s, and {@code extras}: the
 * secondary metrics by label (in their own units: memory MB, load time ms, gc.alloc.rate.norm B/op), plus
 * {@code p90} and {@code max} of the primary score (its unit) for single-shot cells, whose samples are one per fork.
 */
public record CellSummary(String benchmark, Map<String, String> params, String unit, double p50, double p99,
                          Interval mean, double samplesPerSecond, Map<String, Double> extras) {

    public CellSummary(String benchmark, Map<String, String> params, String unit, double p50, double p99,
                       Interval mean, double samplesPerSecond) {
        this(benchmark, params, unit, p50, p99, mean, samplesPerSecond, Map.of());
    }

    public static CellSummary of(RunResult run) {
        BenchmarkParams bp = run.getParams();
        Map<String, String> params = new LinkedHashMap<>();
        bp.getParamsKeys().forEach(k -> params.put(k, bp.getParam(k)));
        Result<?> primary = run.getPrimaryResult();
        Statistics stats = primary.getStatistics();
        List<double[]> forks = new ArrayList<>();
        for (BenchmarkResult fork : run.getBenchmarkResults()) {
            forks.add(fork.getIterationResults().stream().mapToDouble(it -> it.getPrimaryResult().getScore()).toArray());
        }
        Result<?> samples = run.getSecondaryResults().get(SamplesProfiler.LABEL);
        Map<String, Double> extras = new LinkedHashMap<>();
        run.getSecondaryResults().forEach((label, r) -> extras.put(label, r.getScore()));
        if (bp.getMode() == Mode.SingleShotTime) {
            extras.put(P90, stats.getPercentile(90));
            extras.put(MAX, stats.getMax());
        }
        return new CellSummary(shortName(bp.getBenchmark()), params, primary.getScoreUnit(),
                stats.getPercentile(50), stats.getPercentile(99),
                ForkMeans.interval(forks.toArray(double[][]::new), ForkMeans.DEFAULT_CONFIDENCE),
                samples == null ? Double.NaN : samples.getScore(), extras);
    }

    public static final String P90 = "p90";
    public static final String MAX = "max";

    /** "dev.inferbench.bench.InferenceBenchmark.infer" becomes "InferenceBenchmark.infer". */
    static String shortName(String benchmark) {
        String[] parts = benchmark.split("\\.");
        return parts.length < 2 ? benchmark : parts[parts.length - 2] + "." + parts[parts.length - 1];
    }
}

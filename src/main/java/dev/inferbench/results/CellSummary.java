package dev.inferbench.results;

import dev.inferbench.metrics.SamplesProfiler;
import dev.inferbench.stats.ForkMeans;
import dev.inferbench.stats.Interval;
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
 * The figures of one benchmark cell: percentiles of all timed calls, the mean with its fork-level confidence
 * interval ({@link ForkMeans}: forks are the unit, not iterations), and batch-aware samples/s.
 */
public record CellSummary(String benchmark, Map<String, String> params, String unit, double p50, double p99,
                          Interval mean, double samplesPerSecond) {

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
        return new CellSummary(shortName(bp.getBenchmark()), params, primary.getScoreUnit(),
                stats.getPercentile(50), stats.getPercentile(99),
                ForkMeans.interval(forks.toArray(double[][]::new), ForkMeans.DEFAULT_CONFIDENCE),
                samples == null ? Double.NaN : samples.getScore());
    }

    /** "dev.inferbench.bench.InferenceBenchmark.infer" becomes "InferenceBenchmark.infer". */
    static String shortName(String benchmark) {
        String[] parts = benchmark.split("\\.");
        return parts.length < 2 ? benchmark : parts[parts.length - 2] + "." + parts[parts.length - 1];
    }
}

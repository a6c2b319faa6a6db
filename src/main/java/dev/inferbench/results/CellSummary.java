package dev.inferbench.results;

import dev.inferbench.compare.MeanInterval;
import dev.inferbench.metrics.SamplesProfiler;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.util.Statistics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The figures of one benchmark cell: percentiles of all timed calls, the mean with a confidence interval from
 * per-iteration means across forks, and batch-aware samples/s.
 */
public record CellSummary(String benchmark, Map<String, String> params, String unit, double p50, double p99,
                          MeanInterval mean, double samplesPerSecond) {

    public static CellSummary of(RunResult run) {
        BenchmarkParams bp = run.getParams();
        Map<String, String> params = new LinkedHashMap<>();
        bp.getParamsKeys().forEach(k -> params.put(k, bp.getParam(k)));
        Result<?> primary = run.getPrimaryResult();
        Statistics stats = primary.getStatistics();
        List<Double> means = new ArrayList<>();
        for (BenchmarkResult fork : run.getBenchmarkResults()) {
            for (IterationResult it : fork.getIterationResults()) {
                means.add(it.getPrimaryResult().getScore());
            }
        }
        double[] m = means.stream().mapToDouble(Double::doubleValue).toArray();
        Result<?> samples = run.getSecondaryResults().get(SamplesProfiler.LABEL);
        return new CellSummary(shortName(bp.getBenchmark()), params, primary.getScoreUnit(),
                stats.getPercentile(50), stats.getPercentile(99),
                MeanInterval.of(m, MeanInterval.DEFAULT_CONFIDENCE),
                samples == null ? Double.NaN : samples.getScore());
    }

    /** "dev.inferbench.bench.InferenceBenchmark.infer" becomes "InferenceBenchmark.infer". */
    static String shortName(String benchmark) {
        String[] parts = benchmark.split("\\.");
        return parts.length < 2 ? benchmark : parts[parts.length - 2] + "." + parts[parts.length - 1];
    }
}

package dev.inferbench.metrics;

import dev.inferbench.quality.CellQuality;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Output quality as JMH secondary metrics: {@code fidelity.top1} (%), {@code fidelity.maxabs}, {@code fidelity.cosine}
 * and, with labelled data, {@code accuracy.top1} / {@code accuracy.top5} (%). The trial setup computes them once,
 * outside the measurement, and leaves them in {@link CellQuality}; this profiler, in the same fork JVM, attaches them
 * to every iteration (the same value each time, so the fork's average is that value).
 */
public final class QualityProfiler implements InternalProfiler {

    @Override
    public String getDescription() {
        return "fidelity to the fp32 reference and accuracy on labelled data, computed in the trial setup";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        // nothing to start: the figures were computed before measuring
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                       IterationResult result) {
        List<Result> out = new ArrayList<>();
        for (Map.Entry<String, CellQuality.Figure> e : new TreeMap<>(CellQuality.figures()).entrySet()) {
            out.add(new ScalarResult(e.getKey(), e.getValue().value(), e.getValue().unit(), AggregationPolicy.AVG));
        }
        return out;
    }
}

package dev.inferbench.generate;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;
import org.openjdk.jmh.runner.IterationType;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * A generation cell's figures ({@link GenerationFigures}: TTFT, TPOT, ITL percentiles, end-to-end latency, output and
 * total tokens/s, KV-cache bytes per token, prefill and decode shares) as secondary metrics of each measured
 * iteration, from the requests GenerationBenchmark recorded in it; forks are the unit of their intervals like every
 * other figure. A load step (GenerationLoadBenchmark) records only its requests' lengths here, its times going through
 * the serving figures. Cells that are not generation cells get nothing.
 */
public final class GenerationProfiler implements InternalProfiler {

    @Override
    public String getDescription() {
        return "generation: time to first token, time per output token, inter-token latency, tokens/s, KV-cache bytes";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        GenerationRecord.take(); // requests of a warmup iteration, or of the setup's check, are not this iteration's
        GenerationRecord.takeLengths();
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                       IterationResult result) {
        List<RequestTimes> requests = GenerationRecord.take();
        int[][] lengths = GenerationRecord.takeLengths();
        if (iterationParams.getType() != IterationType.MEASUREMENT) {
            return List.of();
        }
        Map<String, Double> figures = !requests.isEmpty() ? GenerationFigures.of(requests)
                : lengths != null ? GenerationFigures.lengths(lengths[0], lengths[1]) : Map.of();
        List<Result> out = new ArrayList<>();
        for (Map.Entry<String, Double> e : figures.entrySet()) {
            out.add(new ScalarResult(e.getKey(), e.getValue(), GenerationFigures.UNITS.get(e.getKey()),
                    AggregationPolicy.AVG));
        }
        return out;
    }
}

package dev.inferbench.metrics;

import java.util.concurrent.TimeUnit;
import java.util.ArrayList;
import dev.inferbench.cell.CellSpec;
import java.util.Optional;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;
import org.openjdk.jmh.runner.options.TimeValue;

import java.util.Collection;
import java.util.List;

/**
 * Batch-aware throughput as a JMH secondary metric, {@value #LABEL} in samples/s, in total over the cell's callers:
 * batchSize times callers divided by the iteration's mean time per call (over every call, {@link CallMeanProfiler#meanNanos}). JMH's own ops/s counts calls, not samples, and {@code @OperationsPerInvocation}
 * is fixed at compile time, so it cannot follow the {@code batchSize} parameter. Benchmarks without a
 * {@code batchSize} parameter get nothing.
 */
public final class SamplesProfiler implements InternalProfiler {
    public static final String LABEL = "samples";
    public static final String UNIT = "samples/s";
    /** The mean time per call divided by the batch: latency per sample, beside the per-call latency. */
    public static final String PER_SAMPLE = "latency.sample";
    /** samples/s × tokens per sample, for sequence models (token-id inputs): what LLM and BERT users quote. */
    public static final String TOKENS = "tokens";

    @Override
    public String getDescription() {
        return "samples per second, batch-aware (batchSize / mean call time)";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        // nothing to start: the figure is derived from the iteration's primary result
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                       IterationResult result) {
        Optional<CellSpec> cell = ForkCell.of(benchmarkParams);
        double nanos = CallMeanProfiler.meanNanos(benchmarkParams, iterationParams, result);
        if (cell.isEmpty() || Double.isNaN(nanos)) {
            return List.of(); // not a model benchmark, not a time mode, or the iteration failed before measuring
        }
        // every caller (JMH thread) is busy for the whole window: the cell's samples/s is all of theirs together
        double samples = cell.get().batchSize() * (double) benchmarkParams.getThreads() / (nanos / 1e9);
        List<Result> out = new ArrayList<>();
        out.add(new ScalarResult(LABEL, samples, UNIT, AggregationPolicy.AVG));
        // the mean call's share of one sample, in the benchmark's unit: comparable across batch sizes
        TimeUnit tu = benchmarkParams.getTimeUnit();
        out.add(new ScalarResult(PER_SAMPLE, nanos / cell.get().batchSize() / tu.toNanos(1),
                TimeValue.tuToString(tu) + "/sample", AggregationPolicy.AVG));
        int tokens = SetupRecord.tokensPerSample();
        if (tokens > 0) {
            out.add(new ScalarResult(TOKENS, samples * tokens, "tokens/s", AggregationPolicy.AVG));
        }
        return out;
    }
}

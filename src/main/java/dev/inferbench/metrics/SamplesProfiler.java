package dev.inferbench.metrics;

import dev.inferbench.cell.CellSpec;
import org.openjdk.jmh.runner.options.TimeValue;

import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Batch-aware throughput as a JMH secondary metric, {@value #LABEL} in samples/s, in total over the cell's callers:
 * batchSize times callers divided by the iteration's mean time per call (over every call, {@link CallMeanProfiler#meanNanos}). JMH's own ops/s counts calls, not samples, and {@code @OperationsPerInvocation}
 * is fixed at compile time, so it cannot follow the {@code batchSize} parameter. Benchmarks without a
 * {@code batchSize} parameter get nothing.
 */
public final class SamplesProfiler extends FigureProfiler {
    public static final String LABEL = "samples";
    public static final String UNIT = "samples/s";
    /** The mean time per call divided by the batch: latency per sample, beside the per-call latency. */
    public static final String PER_SAMPLE = "latency.sample";
    /** samples/s × tokens per sample, for sequence models (token-id inputs): what LLM and BERT users quote. */
    public static final String TOKENS = "tokens";

    public SamplesProfiler() {
        super("samples per second, batch-aware (batchSize / mean call time)");
    }

    @Override
    protected void figures(Iteration it, Figures out) {
        Optional<CellSpec> cell = ForkCell.of(it.benchmark());
        double nanos = CallMeanProfiler.meanNanos(it.benchmark(), it.params(), it.result());
        if (cell.isEmpty() || Double.isNaN(nanos)) {
            return; // not a model benchmark, not a time mode, or the iteration failed before measuring
        }
        // every caller (JMH thread) is busy for the whole window: the cell's samples/s is all of theirs together
        double samples = cell.get().batchSize() * (double) it.benchmark().getThreads() / (nanos / 1e9);
        out.add(LABEL, samples, UNIT);
        // the mean call's share of one sample, in the benchmark's unit: comparable across batch sizes
        TimeUnit tu = it.benchmark().getTimeUnit();
        out.add(PER_SAMPLE, nanos / cell.get().batchSize() / tu.toNanos(1), TimeValue.tuToString(tu) + "/sample");
        int tokens = SetupRecord.tokensPerSample();
        if (tokens > 0) {
            out.add(TOKENS, samples * tokens, "tokens/s");
        }
    }
}

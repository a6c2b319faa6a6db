package dev.inferbench.metrics;

import dev.inferbench.cell.BenchmarkNames;
import dev.inferbench.ByteUnits;
import dev.inferbench.engine.TrainingMemory;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;
import org.openjdk.jmh.runner.IterationType;

import java.util.Collection;
import java.util.List;

/**
 * A training cell's memory (TrainingBenchmark), measured once per fork on its first step with libtorch's memory
 * accounting on ({@link TrainingMemory}), as secondary metrics in MiB, lower is better: {@value #INFERENCE} (one forward
 * pass without gradients at the same batch), {@value #FORWARD} (the forward pass with gradients), {@value #BACKWARD}
 * (the backward pass, above what the forward left), {@value #GRADIENTS}, and {@value #STEP}, forward plus backward: what
 * a step needs on top of the model and its batch. The step's time is the cell's primary score. Forks are the unit of
 * their intervals, like every other figure; cells that are not training cells get nothing.
 */
public final class TrainingProfiler implements InternalProfiler {
    public static final String PREFIX = "train.mem.";
    public static final String INFERENCE = PREFIX + "inference";
    public static final String FORWARD = PREFIX + "forward";
    public static final String BACKWARD = PREFIX + "backward";
    public static final String GRADIENTS = PREFIX + "gradients";
    public static final String STEP = PREFIX + "step";

    /** Whether a benchmark method ({@code dev.inferbench.bench.TrainingBenchmark.step}) is the training step's. */
    public static boolean isTraining(String benchmark) {
        return BenchmarkNames.inClass(benchmark, BenchmarkNames.TRAINING);
    }

    private static volatile TrainingMemory measured;

    /** The fork's figures, from the benchmark's setup; they stand for every measured iteration of the fork. */
    public static void record(TrainingMemory memory) {
        measured = memory;
    }

    @Override
    public String getDescription() {
        return "training step memory: inference, forward with gradients, backward, gradients (MiB)";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        // measured in the benchmark's setup, before any iteration
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                       IterationResult result) {
        TrainingMemory m = measured;
        if (m == null || iterationParams.getType() != IterationType.MEASUREMENT) {
            return List.of();
        }
        return List.of(mib(INFERENCE, m.inference()), mib(FORWARD, m.forward()), mib(BACKWARD, m.backward()),
                mib(GRADIENTS, m.gradients()), mib(STEP, m.step()));
    }

    private static Result mib(String label, double value) {
        return new ScalarResult(label, value, ByteUnits.MIB, AggregationPolicy.AVG);
    }
}

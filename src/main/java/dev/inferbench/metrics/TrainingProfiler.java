package dev.inferbench.metrics;

import dev.inferbench.ByteUnits;
import dev.inferbench.cell.BenchmarkNames;
import dev.inferbench.engine.TrainingMemory;

/**
 * A training cell's memory (TrainingBenchmark), measured once per fork on its first step with libtorch's memory
 * accounting on ({@link TrainingMemory}), as secondary metrics in MiB, lower is better: {@value #INFERENCE} (one forward
 * pass without gradients at the same batch), {@value #FORWARD} (the forward pass with gradients), {@value #BACKWARD}
 * (the backward pass, above what the forward left), {@value #GRADIENTS}, and {@value #STEP}, forward plus backward: what
 * a step needs on top of the model and its batch. The step's time is the cell's primary score. Forks are the unit of
 * their intervals, like every other figure; cells that are not training cells get nothing.
 */
public final class TrainingProfiler extends FigureProfiler {
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

    /** The fork's figures, set by the benchmark's setup; they stand for every measured iteration of the fork. */
    public static final Handoff.Slot<TrainingMemory> MEMORY = new Handoff.Slot<>();

    public TrainingProfiler() {
        super("training step memory: inference, forward with gradients, backward, gradients (MiB)");
    }

    @Override
    protected void figures(Iteration it, Figures out) {
        // measured in the benchmark's setup, before any iteration
        TrainingMemory m = MEMORY.get();
        if (m != null && it.measured()) {
            out.kept(INFERENCE, m.inference(), ByteUnits.MIB).kept(FORWARD, m.forward(), ByteUnits.MIB)
                    .kept(BACKWARD, m.backward(), ByteUnits.MIB).kept(GRADIENTS, m.gradients(), ByteUnits.MIB)
                    .kept(STEP, m.step(), ByteUnits.MIB);
        }
    }
}

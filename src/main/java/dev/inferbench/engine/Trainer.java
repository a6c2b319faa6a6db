package dev.inferbench.engine;

import dev.inferbench.BenchException;
import dev.inferbench.tensor.HostTensor;

import java.util.List;

/**
 * One model loaded for training steps, on an engine that can compute gradients (djl-pytorch: DJL's training API on
 * libtorch). Obtained from {@link EngineKind#openTrainer}; the owner closes it. A step is what a training loop does
 * per batch: the forward pass with gradients recorded, a loss, the backward pass, and a plain SGD update of every
 * trained weight (then the gradients are zeroed for the next step).
 */
public interface Trainer extends AutoCloseable {

    ModelSignature signature();

    /** The batch every step trains on, made engine arrays once; replaces the previous one. */
    void prepare(List<HostTensor> inputs) throws BenchException;

    /** One training step on the prepared batch. */
    void step() throws BenchException;

    /**
     * One forward pass without gradients, then one training step, with libtorch's memory accounting on: the figures of
     * {@link TrainingMemory}. Best on a fresh model (a fork's first step), where the backward pass allocates the
     * gradients.
     */
    TrainingMemory measureMemory() throws BenchException;

    /** Idempotent; never throws. */
    @Override
    void close();
}

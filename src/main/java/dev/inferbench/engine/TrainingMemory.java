package dev.inferbench.engine;

/**
 * The memory of one training step beside inference at the same batch, in MiB, as libtorch's CPU allocator accounted
 * for it while its profiler ran (see {@code TorchMemoryTrace}), and the same by the arrays Java held, as a check.
 *
 * @param inference       peak allocated during one forward pass without gradients
 * @param forward         peak allocated during the forward pass with gradients (and the loss): what the step holds
 *                        for its backward pass
 * @param backward        peak allocated during the backward pass, above what the forward left; on a fork's first step
 *                        it includes the gradients, which are then allocated
 * @param gradients       the gradients of every trained weight, by the arrays' sizes
 * @param weights         the trained weights themselves
 * @param inferenceArrays the arrays the inference forward left in its call's manager (DJL keeps every intermediate of a
 *                        call until the call ends), the Java side of {@code inference}
 * @param forwardArrays   the same for the forward with gradients
 */
public record TrainingMemory(double inference, double forward, double backward, double gradients, double weights,
                             double inferenceArrays, double forwardArrays) {

    /** The most a step holds above the model and its inputs: the forward's, then the backward's on top. */
    public double step() {
        return forward + backward;
    }
}

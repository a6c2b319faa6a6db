package dev.inferbench.profile;

import java.util.List;
import java.util.Optional;

/**
 * Activation memory as ONNX Runtime's CPU arena measured it, over the session's first run: then each kernel's
 * outputs are allocated and freed one by one (later runs take one block laid out by the memory pattern ORT planned
 * from the first, so their figures stay flat). What was in use before the first kernel (weights ORT pre-packed into
 * the arena, such as a Gemm's) is the baseline, taken off every figure. The graph is the one ORT optimized: fused
 * kernels (Conv+BatchNorm+ReLU) never write the tensors between the operators they fused.
 *
 * @param baselineBytes  bytes requested and in use before the first kernel
 * @param livePeakBytes  the most bytes requested and still in use after a kernel ran, baseline taken off
 * @param livePeakNode   ORT's node after which {@code livePeakBytes} were in use
 * @param highWaterBytes the arena's high-water mark over the run (kernel scratch and bin rounding included),
 *                       baseline taken off
 * @param kernels        the run's kernels
 */
public record OrtArena(long baselineBytes, long livePeakBytes, String livePeakNode, long highWaterBytes, int kernels) {

    /** From the first run of a whole-session profile; empty when the profile has no arena figures. */
    public static Optional<OrtArena> of(OrtProfile session) {
        List<OrtProfile.Kernel> first = session.firstRun();
        if (first.isEmpty() || first.stream().anyMatch(k -> k.arena() == null)) {
            return Optional.empty();
        }
        OrtProfile.Arena start = first.get(0).arena();
        long baseline = start.requested() - start.requestedDelta();
        long baselineInUse = start.inUse() - start.inUseDelta();
        OrtProfile.Kernel top = first.get(0);
        long highWater = 0;
        for (OrtProfile.Kernel k : first) {
            if (k.arena().requested() > top.arena().requested()) {
                top = k;
            }
            highWater = Math.max(highWater, k.arena().inUsePeak());
        }
        return Optional.of(new OrtArena(baseline, top.arena().requested() - baseline, top.node(),
                highWater - baselineInUse, first.size()));
    }
}

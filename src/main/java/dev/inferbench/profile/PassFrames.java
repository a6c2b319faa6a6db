package dev.inferbench.profile;

import java.util.Map;

/**
 * The Java side and the JVM in one operator pass's measured calls: async-profiler's cpu samples of every thread of
 * the pass's JVM counted by {@link FrameGroup}, and the JVM's own counters over the same calls. A group's time per
 * call is its share of the samples times the pass's mean call time ({@link #msPerCall}): the call's wall time
 * apportioned by where the CPU went, so that the groups add up to the call.
 *
 * @param engine       what took the samples, as the recording says ({@code perf_events}, {@code ctimer}...)
 * @param samples      every cpu sample of the measured calls, all threads
 * @param groups       samples per group, by {@link FrameGroup#label()}, every group present
 * @param bytesPerCall Java heap bytes the calling thread allocated per call (what {@code alloc.call} measures)
 * @param gcMsPerCall  the collectors' time (their MXBeans) over the measured calls, per call
 * @param jitMsPerCall the JIT compilers' time (the compilation MXBean) over the measured calls, per call
 * @param stacks       the samples' collapsed stacks, a file beside the pass's own ({@code <cell-id>.cpu.collapsed})
 */
public record PassFrames(String engine, long samples, Map<String, Long> groups, double bytesPerCall,
                         double gcMsPerCall, double jitMsPerCall, String stacks) {
    /** The suffix of the collapsed stacks' file. */
    public static final String STACKS_SUFFIX = ".cpu.collapsed";

    /** The group's time in a call of {@code callMs}: its share of the samples times the call; NaN without samples. */
    public double msPerCall(FrameGroup group, double callMs) {
        if (samples <= 0) {
            return Double.NaN;
        }
        return groups.getOrDefault(group.label(), 0L) * callMs / samples;
    }
}

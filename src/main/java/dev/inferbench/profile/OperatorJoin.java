package dev.inferbench.profile;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The join of async-profiler's samples with ONNX Runtime's kernel timeline: every sample that lands in the engine's
 * library gets the frames of the kernel running at that instant, inserted where the stack enters the library, e.g.
 * {@code OrtSession.run;[layer1.0];[layer1.0.relu];Conv…Relu;libonnxruntime.so}. On the thread that called the
 * session the kernel is the one ORT's profile shows on that thread; a worker (a thread that never called the session,
 * ORT's intra-op pool) takes the kernel running anywhere then, under a root frame {@value #POOL}, the kernel frames
 * first so that each operator's worker time adds up whatever the unwinder managed below. What no kernel explains is
 * named for what it is instead: {@value #BETWEEN}, {@value #OUTSIDE_RUN}, {@value #POOL_WAIT}, {@value #OVERLAP},
 * {@value #NO_PROFILE}. Samples outside the library are left as they were.
 */
final class OperatorJoin {
    static final String POOL = "[ORT thread pool]";
    /** The calling thread inside {@code model_run} but in no kernel: scheduling, allocation, copies between nodes. */
    static final String BETWEEN = "[between kernels]";
    /** The calling thread in the library outside {@code model_run}: the binding's input and output handling. */
    static final String OUTSIDE_RUN = "[outside model_run]";
    /** A worker while no kernel runs: spinning or parked in ORT's thread pool. */
    static final String POOL_WAIT = "[thread pool wait]";
    /** A worker while kernels of several concurrent calls run: its time cannot be given to one of them. */
    static final String OVERLAP = "[overlapping kernels]";
    /** A sample after ORT's profile ended (ORT stops recording at a million events) or before it began. */
    static final String NO_PROFILE = "[no ORT profile]";
    private static final String ENGINE_LIBRARY = "libonnxruntime.so";

    /** One cpu sample: its OS thread, its instant (ns since the epoch) and its frames, root first, as collapsed. */
    record Sample(long tid, long ns, List<String> frames) {
    }

    /**
     * What the join made: the collapsed stacks with their sample counts, and for each sample in the library what it
     * was given (a kernel, or one of the labels above) and whether it was on a calling thread.
     *
     * @param callerElsewhere     samples of a calling thread outside the library while ORT's profile ran (Java code,
     *                            the JNI glue): on one clock these fall between {@code model_run}s
     * @param callerElsewhereInRun of those, how many the timeline puts inside a {@code model_run} of that thread: near
     *                            0 when the clocks agree, near the share of time spent in runs when they do not
     */
    record Joined(Map<String, Long> stacks, List<Given> given, long samples, long callerElsewhere,
                  long callerElsewhereInRun) {
    }

    /** @param kernel the kernel a library sample was given, null when it got {@link #label} instead */
    record Given(KernelTimeline.Span kernel, String label, boolean caller) {
    }

    private OperatorJoin() {
    }

    /**
     * @param frames a kernel's frames, outermost first (its module, its layer, its operator)
     */
    static Joined join(List<Sample> samples, KernelTimeline timeline, Function<OrtProfile.Kernel, List<String>> frames) {
        Map<String, Long> stacks = new LinkedHashMap<>();
        List<Given> given = new ArrayList<>();
        long elsewhere = 0;
        long elsewhereInRun = 0;
        for (Sample s : samples) {
            int lib = engineFrame(s.frames());
            List<String> out = s.frames();
            if (lib < 0 && timeline.isCaller(s.tid()) && timeline.covers(s.ns())) {
                elsewhere++;
                elsewhereInRun += timeline.inRunOn(s.tid(), s.ns()) ? 1 : 0;
            }
            if (lib >= 0) {
                boolean caller = timeline.isCaller(s.tid());
                Given g = give(s, caller, timeline);
                given.add(g);
                List<String> inserted = g.kernel() != null ? frames.apply(g.kernel().kernel())
                        : List.of(g.label() + KernelName.INSERTED);
                out = new ArrayList<>(s.frames().size() + inserted.size() + 1);
                if (caller || hasJavaFrame(s.frames())) {
                    out.addAll(s.frames().subList(0, lib));
                    out.addAll(inserted);
                    out.addAll(s.frames().subList(lib, s.frames().size()));
                } else {
                    out.add(POOL);
                    out.addAll(inserted);
                    out.addAll(s.frames());
                }
            }
            stacks.merge(String.join(";", out), 1L, Long::sum);
        }
        return new Joined(stacks, given, samples.size(), elsewhere, elsewhereInRun);
    }

    private static Given give(Sample s, boolean caller, KernelTimeline timeline) {
        if (!timeline.covers(s.ns())) {
            return new Given(null, NO_PROFILE, caller);
        }
        if (caller) {
            KernelTimeline.Span k = timeline.kernelOn(s.tid(), s.ns());
            if (k != null) {
                return new Given(k, null, true);
            }
            return new Given(null, timeline.inRunOn(s.tid(), s.ns()) ? BETWEEN : OUTSIDE_RUN, true);
        }
        List<KernelTimeline.Span> running = timeline.kernelsAt(s.ns());
        if (running.size() == 1) {
            return new Given(running.get(0), null, false);
        }
        return new Given(null, running.isEmpty() ? POOL_WAIT : OVERLAP, false);
    }

    /** The index of the first frame (from the root) in the engine's library, or -1. */
    static int engineFrame(List<String> frames) {
        for (int i = 0; i < frames.size(); i++) {
            if (frames.get(i).contains(ENGINE_LIBRARY)) {
                return i;
            }
        }
        return -1;
    }

    /** Java frames carry the converter's type suffix: interpreted, C1, C2, inlined. */
    private static boolean hasJavaFrame(List<String> frames) {
        for (String f : frames) {
            if (f.endsWith("_[j]") || f.endsWith("_[i]") || f.endsWith("_[0]") || f.endsWith("_[1]")) {
                return true;
            }
        }
        return false;
    }
}

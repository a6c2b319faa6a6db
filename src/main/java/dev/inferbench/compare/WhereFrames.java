package dev.inferbench.compare;

import dev.inferbench.profile.FrameGroup;
import dev.inferbench.profile.OperatorPass;
import dev.inferbench.profile.PassFrames;
import dev.inferbench.stats.PairedDifference;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * Where one cell's call time changed on the Java side and in the JVM, from the cpu samples of the same operator
 * passes {@link Where} reads ({@link PassFrames}): per pair and side, each {@link FrameGroup}'s time per call is its
 * share of the pass's samples times the pass's mean call time, and its change is the mean per-pair difference with
 * its interval ({@link PairedDifference}), the groups one family (Bonferroni, as the operator rows are). Beside them
 * the JVM's own figures over the same calls: heap bytes, GC time and JIT compilation time per call, each with its
 * interval (a family of three).
 *
 * @param engine     what took the samples, as the sides' recordings say (both named when they differ)
 * @param groups     every group, the named (interval excludes 0) first, largest change first; shares are of the
 *                   call's change in the passes ({@link Where#call()})
 * @param jvm        {@link #BYTES}, {@link #GC}, {@link #JIT}, in that order; no shares
 * @param baseStacks the passes' collapsed stacks of the baseline, pair for pair (empty when not known)
 * @param headStacks the same for the candidate
 * @param flameDiff  the differential flame graph drawn from those stacks, or null for none
 */
public record WhereFrames(int pairs, double confidence, String engine, List<Where.Change> groups,
                          List<Where.Change> jvm, List<Path> baseStacks, List<Path> headStacks, Path flameDiff) {
    public static final String BYTES = "heap bytes per call";
    public static final String GC = "GC ms per call";
    public static final String JIT = "JIT compilation ms per call";

    /** The groups named, largest change first. */
    public List<Where.Change> named() {
        return groups.stream().filter(Where.Change::named).toList();
    }

    /** The groups whose interval holds 0. */
    public List<Where.Change> unnamed() {
        return groups.stream().filter(c -> !c.named()).toList();
    }

    /** This block with the passes' stack files, for the differential flame graph. */
    public WhereFrames withStacks(List<Path> base, List<Path> head) {
        return new WhereFrames(pairs, confidence, engine, groups, jvm, List.copyOf(base), List.copyOf(head), flameDiff);
    }

    /** This block with the differential flame graph drawn from its stacks. */
    public WhereFrames withFlameDiff(Path html) {
        return new WhereFrames(pairs, confidence, engine, groups, jvm, baseStacks, headStacks, html);
    }

    /**
     * @param callChange the call's change in the passes per pair, ms, head less base (what the groups' shares are of)
     * @return null unless every pass of both sides holds samples
     */
    static WhereFrames of(List<OperatorPass.Profiled> base, List<OperatorPass.Profiled> head, double[] callChange,
                          double confidence) {
        int n = base.size();
        if (n == 0 || n != head.size() || base.stream().anyMatch(p -> p.frames() == null || p.frames().samples() == 0)
                || head.stream().anyMatch(p -> p.frames() == null || p.frames().samples() == 0)) {
            return null;
        }
        FrameGroup[] all = FrameGroup.values();
        double perGroup = Comparer.perRow(confidence, all.length);
        List<Where.Change> groups = new ArrayList<>();
        for (FrameGroup g : all) {
            groups.add(change(g.label(), base, head, p -> p.frames().msPerCall(g, p.callMs()), perGroup, callChange));
        }
        groups.sort(Comparator.comparing((Where.Change c) -> !c.named())
                .thenComparing(c -> -Math.abs(c.change().estimate())));
        double perJvm = Comparer.perRow(confidence, 3);
        List<Where.Change> jvm = List.of(
                change(BYTES, base, head, p -> p.frames().bytesPerCall(), perJvm, null),
                change(GC, base, head, p -> p.frames().gcMsPerCall(), perJvm, null),
                change(JIT, base, head, p -> p.frames().jitMsPerCall(), perJvm, null));
        return new WhereFrames(n, confidence, engines(base, head), List.copyOf(groups), jvm, List.of(), List.of(),
                null);
    }

    private static Where.Change change(String name, List<OperatorPass.Profiled> base, List<OperatorPass.Profiled> head,
                                       ToDoubleFunction<OperatorPass.Profiled> figure, double confidence,
                                       double[] callChange) {
        int n = base.size();
        double[] b = new double[n];
        double[] h = new double[n];
        for (int i = 0; i < n; i++) {
            b[i] = figure.applyAsDouble(base.get(i));
            h[i] = figure.applyAsDouble(head.get(i));
        }
        return Where.change(name, "", b, h, callChange, confidence);
    }

    private static String engines(List<OperatorPass.Profiled> base, List<OperatorPass.Profiled> head) {
        Set<String> e = new LinkedHashSet<>();
        base.forEach(p -> e.add(p.frames().engine()));
        head.forEach(p -> e.add(p.frames().engine()));
        return String.join(" / ", e);
    }
}

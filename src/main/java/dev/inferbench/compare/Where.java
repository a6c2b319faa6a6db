package dev.inferbench.compare;

import dev.inferbench.profile.LayerTimes;
import dev.inferbench.profile.OperatorPass;
import dev.inferbench.stats.ForkMeans;
import dev.inferbench.stats.Interval;
import dev.inferbench.stats.PairedDifference;
import dev.inferbench.stats.RatioOfMeans;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where one cell's call time changed between two runs, by operator: the operator passes of both sides
 * ({@link OperatorPass}), pass N of each side taken in the same pair of an interleaved comparison, set side by side
 * pair by pair. Each operator (as ORT ran it: {@code Conv…Relu} for a Conv fused up to its ReLU) gets its ms per
 * call on each side, the mean per-pair change with its interval ({@link PairedDifference}), and its share of the
 * call's change; {@link #OUTSIDE} is the call's time less its operators' (the Java binding, the harness, ORT between
 * kernels). The rows are one family: each row's interval is at the confidence that keeps the family's at
 * {@code confidence} (Bonferroni), so that a comparison of a build with itself names no row, but at the family's
 * error rate. A row whose interval excludes 0 is named; the others are summed in one line. What the named rows
 * explain together is a ratio of two noisy means (their summed change over the call's, per pair), so it comes with
 * Fieller's interval ({@link RatioOfMeans}): a point share alone reads 71 % in one comparison and 122 % in the next
 * when the call's change is itself known to +-50 %. Each row's own share comes with one too, at the row's
 * confidence: whether the first row alone explains most of the change is then read from its lower bound.
 *
 * @param pairs      pairs whose passes both sides hold
 * @param confidence of the family of rows (and of {@code call}'s interval)
 * @param call       the call as the passes timed it from Java; its change is what the rows' shares are of
 * @param rows       named rows first, largest change first, then the others, largest first
 * @param namedShare the named rows' summed change as a share of the call's change, with its interval at
 *                   {@code confidence}; null when no row is named, bounds NaN when the call's change holds 0
 * @param frames     the same passes' cpu samples by frame group and the JVM's figures; null when a pass of either side
 *                   has no samples
 */
public record Where(int pairs, double confidence, Change call, List<Change> rows, Interval namedShare,
                    WhereFrames frames) {
    /** The row of the call's time outside every operator. */
    public static final String OUTSIDE = "(outside the operators)";

    /**
     * One operator's time per call.
     *
     * @param module the module that holds most of the operator's change (the largest change in ms summed over the
     *               pairs), as {@link LayerTimes} names it; empty for {@link #OUTSIDE}
     * @param share  the change as a fraction of the call's change, with Fieller's interval at the row's confidence
     *               (its change per pair over the call's, {@link RatioOfMeans}); bounds NaN where the call's change
     *               holds 0 or the row has no share (the JVM's figures)
     */
    public record Change(String name, String module, double baseMs, double headMs, Interval change, Interval share) {
        /** Whether the change's interval excludes 0: a change shown at the row's confidence. */
        public boolean named() {
            return change.known() && (change.lower() > 0 || change.upper() < 0);
        }
    }

    /** The rows named, largest change first. */
    public List<Change> named() {
        return rows.stream().filter(Change::named).toList();
    }

    /** The rows whose interval holds 0. */
    public List<Change> unnamed() {
        return rows.stream().filter(c -> !c.named()).toList();
    }

    /**
     * @param base pass N of the baseline at index N; @param head the same for the candidate, pair for pair
     */
    public static Where of(List<OperatorPass.Profiled> base, List<OperatorPass.Profiled> head, double confidence) {
        if (base.size() != head.size()) {
            throw new IllegalArgumentException("paired passes differ in number: " + base.size() + " vs " + head.size());
        }
        int n = base.size();
        List<Map<String, Double>> b = new ArrayList<>();
        List<Map<String, Double>> h = new ArrayList<>();
        Set<String> names = new LinkedHashSet<>();
        Map<String, Map<String, double[]>> moduleChange = new HashMap<>(); // operator -> module -> summed change
        for (int i = 0; i < n; i++) {
            b.add(byOperator(base.get(i)));
            h.add(byOperator(head.get(i)));
            names.addAll(b.get(i).keySet());
            names.addAll(h.get(i).keySet());
            addModules(moduleChange, base.get(i), -1);
            addModules(moduleChange, head.get(i), 1);
        }
        double[] callB = new double[n];
        double[] callH = new double[n];
        double[] callD = new double[n];
        for (int i = 0; i < n; i++) {
            callB[i] = base.get(i).callMs();
            callH[i] = head.get(i).callMs();
            callD[i] = callH[i] - callB[i];
        }
        Interval callChange = PairedDifference.interval(callB, callH, confidence);
        double perRow = Comparer.perRow(confidence, names.size());
        List<Change> rows = new ArrayList<>();
        for (String name : names) {
            double[] ob = new double[n];
            double[] oh = new double[n];
            for (int i = 0; i < n; i++) {
                ob[i] = b.get(i).getOrDefault(name, 0.0);
                oh[i] = h.get(i).getOrDefault(name, 0.0);
            }
            rows.add(change(name, module(moduleChange.get(name)), ob, oh, callD, perRow));
        }
        rows.sort(Comparator.comparing((Change c) -> !c.named())
                .thenComparing(c -> -Math.abs(c.change().estimate())).thenComparing(Change::name));
        Change call = new Change("call", "", ForkMeans.mean(callB), ForkMeans.mean(callH), callChange,
                new Interval(1, 1, 1, confidence, n));
        return new Where(n, confidence, call, List.copyOf(rows), namedShare(rows, b, h, callD, confidence),
                WhereFrames.of(base, head, callD, confidence));
    }

    /**
     * One row from its per-pair values on each side: the change with its interval, and its share of the call's change
     * per pair ({@code callChange}, head less base) with Fieller's interval, both at {@code confidence}; no share when
     * {@code callChange} is null.
     */
    static Change change(String name, String module, double[] base, double[] head, double[] callChange,
                         double confidence) {
        Interval d = PairedDifference.interval(base, head, confidence);
        Interval share;
        if (callChange == null) {
            share = new Interval(Double.NaN, Double.NaN, Double.NaN, confidence, base.length);
        } else {
            double[] diff = new double[base.length];
            for (int i = 0; i < diff.length; i++) {
                diff[i] = head[i] - base[i];
            }
            share = RatioOfMeans.fieller(diff, callChange, confidence);
        }
        return new Change(name, module, ForkMeans.mean(base), ForkMeans.mean(head), d, share);
    }

    /** This table with its frame block replaced ({@link WhereFrames#withStacks}). */
    public Where withFrames(WhereFrames f) {
        return new Where(pairs, confidence, call, rows, namedShare, f);
    }

    /** The named rows' summed change per pair over the call's change per pair, Fieller's interval; null for none. */
    private static Interval namedShare(List<Change> rows, List<Map<String, Double>> b, List<Map<String, Double>> h,
                                       double[] callChange, double confidence) {
        List<String> named = rows.stream().filter(Change::named).map(Change::name).toList();
        if (named.isEmpty()) {
            return null;
        }
        double[] part = new double[callChange.length];
        for (int i = 0; i < part.length; i++) {
            for (String name : named) {
                part[i] += h.get(i).getOrDefault(name, 0.0) - b.get(i).getOrDefault(name, 0.0);
            }
        }
        return RatioOfMeans.fieller(part, callChange, confidence);
    }

    /** One pass's ms per call by operator, and the time outside them as {@link #OUTSIDE}. */
    private static Map<String, Double> byOperator(OperatorPass.Profiled p) {
        Map<String, Double> ms = new LinkedHashMap<>();
        for (LayerTimes.Layer l : p.layers().layers()) {
            ms.merge(l.operator(), l.msPerRun(), Double::sum);
        }
        ms.put(OUTSIDE, p.callMs() - p.layers().kernelMs());
        return ms;
    }

    private static void addModules(Map<String, Map<String, double[]>> acc, OperatorPass.Profiled p, int sign) {
        for (LayerTimes.Layer l : p.layers().layers()) {
            acc.computeIfAbsent(l.operator(), o -> new HashMap<>())
                    .computeIfAbsent(l.module(), m -> new double[1])[0] += sign * l.msPerRun();
        }
    }

    /** The module with the largest summed change of an operator; empty for none (the time outside operators). */
    private static String module(Map<String, double[]> modules) {
        if (modules == null) {
            return "";
        }
        return modules.entrySet().stream().max(Comparator.comparingDouble((Map.Entry<String, double[]> e) ->
                Math.abs(e.getValue()[0])).thenComparing(Map.Entry::getKey, Comparator.reverseOrder()))
                .map(Map.Entry::getKey).orElse("");
    }
}

package dev.inferbench.compare;

import dev.inferbench.stats.ForkMeans;
import dev.inferbench.stats.Interval;
import dev.inferbench.stats.MeanDifference;
import dev.inferbench.stats.PairedDifference;
import dev.inferbench.tail.Cause;
import dev.inferbench.tail.TailMetrics;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * How one cell's tail changed between two runs measured with {@code --tail}: each fork's p99 and, per cause, the share
 * of the calls above it that the cause is the main cause of ({@code tail.<cause>}, {@code unexplained} too), compared
 * fork by fork. A share's change is in points, with the interval over the forks: over the pairs where the forks ran in
 * pairs ({@link PairedDifference}), else Welch's over the two sides ({@link MeanDifference}). A cell has several
 * shares, so that the line which names the cause that moved is wrong in at most 5 % of cells, each share's interval
 * is at the family's confidence (Bonferroni over the shares, as the gate splits its rows); a cause moved when its
 * interval leaves out 0.
 *
 * @param shares every share both sides have, the largest change first
 * @param paired whether the shares were compared pair by pair
 */
public record TailShift(CellKey cell, double baseP99, double headP99, List<Share> shares, boolean paired) {
    /** The confidence of the whole line: of the family of one cell's shares. */
    public static final double CONFIDENCE = ForkMeans.DEFAULT_CONFIDENCE;

    /** One cause's share on each side (the forks' means, %) and the change in points with its interval. */
    public record Share(String cause, double base, double head, Interval change, int baseForks, int headForks) {
        public boolean moved() {
            return change.known() && (change.lower() > 0 || change.upper() < 0);
        }
    }

    /** The shares that moved beyond their interval, the largest change first. */
    public List<Share> moved() {
        return shares.stream().filter(Share::moved).toList();
    }

    /** Whether any share differs at all between the sides (else there is nothing to say of the cell). */
    public boolean differs() {
        return shares.stream().anyMatch(s -> s.base() != s.head());
    }

    /** Whether any share had the two forks a side an interval needs. */
    public boolean told() {
        return shares.stream().anyMatch(s -> s.change().known());
    }

    /** The confidence of each share's interval: the family's split over its shares. */
    public static double perShare(int shares) {
        return Comparer.perRow(CONFIDENCE, shares);
    }

    /** Every cell both runs measured with {@code --tail}, in the report's order of cells. */
    public static List<TailShift> of(List<CellResults> baseline, List<CellResults> candidate, Comparer.Report report) {
        Map<CellKey, CellResults> base = Comparer.keyed(baseline, candidate);
        Map<CellKey, CellResults> head = Comparer.keyed(candidate, baseline);
        List<TailShift> out = new ArrayList<>();
        for (Map.Entry<CellKey, ForkPairs> e : report.forkPairs().entrySet()) {
            CellResults b = base.get(e.getKey());
            CellResults c = head.get(e.getKey());
            if (b != null && c != null && b.metrics().containsKey(TailMetrics.P99)
                    && c.metrics().containsKey(TailMetrics.P99)) {
                out.add(of(e.getKey(), b, c, e.getValue()));
            }
        }
        return out;
    }

    static TailShift of(CellKey key, CellResults b, CellResults c, ForkPairs pairs) {
        List<String> columns = Cause.columns().stream()
                .filter(col -> b.metrics().containsKey(TailMetrics.share(col))
                        && c.metrics().containsKey(TailMetrics.share(col))).toList();
        double confidence = perShare(Math.max(1, columns.size()));
        List<Share> shares = new ArrayList<>();
        boolean paired = false;
        for (String col : columns) {
            MetricSeries mb = b.metrics().get(TailMetrics.share(col));
            MetricSeries mc = c.metrics().get(TailMetrics.share(col));
            double[] fb = ForkMeans.of(mb.forks());
            double[] fc = ForkMeans.of(mc.forks());
            Interval change;
            boolean pairedHere = pairs.usable() && fb.length == b.stamps().size() && fc.length == c.stamps().size()
                    && finite(select(fb, pairs.baseline())) && finite(select(fc, pairs.candidate()));
            if (pairedHere) {
                change = PairedDifference.interval(select(fb, pairs.baseline()), select(fc, pairs.candidate()),
                        confidence);
            } else {
                change = MeanDifference.interval(finiteOnly(fb), finiteOnly(fc), confidence);
            }
            paired |= pairedHere;
            shares.add(new Share(col, ForkMeans.mean(finiteOnly(fb)), ForkMeans.mean(finiteOnly(fc)), change,
                    finiteOnly(fb).length, finiteOnly(fc).length));
        }
        shares.sort(Comparator.comparingDouble((Share s) -> Double.isFinite(s.change().estimate())
                ? -Math.abs(s.change().estimate()) : 0));
        return new TailShift(key, p99(b), p99(c), List.copyOf(shares), paired);
    }

    /** The forks' mean p99, ms (each fork's own, as the summary's tail line reads it). */
    private static double p99(CellResults cell) {
        return ForkMeans.mean(finiteOnly(ForkMeans.of(cell.metrics().get(TailMetrics.P99).forks())));
    }

    private static double[] select(double[] values, int[] indices) {
        double[] out = new double[indices.length];
        for (int i = 0; i < indices.length; i++) {
            out[i] = values[indices[i]];
        }
        return out;
    }

    private static boolean finite(double[] v) {
        return Arrays.stream(v).allMatch(Double::isFinite);
    }

    /** A fork with too few calls for a p99 has no shares (NaN): it is left out, not read as 0. */
    private static double[] finiteOnly(double[] v) {
        return Arrays.stream(v).filter(Double::isFinite).toArray();
    }
}

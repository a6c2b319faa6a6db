package dev.inferbench.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;

/**
 * A gated cell, or a gated metric of a cell both runs have, that one side lacks. It has no row and so no verdict;
 * the gate counts it as could not tell, never as a pass: a cell that failed in every fork of HEAD is not in HEAD's
 * results at all, and a gate that compared only what both sides have would pass it.
 *
 * @param metric    the metric one side lacks; empty where that side lacks the whole cell
 * @param headLacks whether HEAD (the candidate) lacks it; else BASE does
 */
public record Missing(CellKey cell, String metric, boolean headLacks) {

    public boolean wholeCell() {
        return metric.isEmpty();
    }

    /**
     * "cell infer batchSize=8: measured in BASE only; HEAD has no fork of it", or for a metric "cell infer
     * batchSize=1: p99 measured in BASE only; HEAD's forks of it have no p99".
     *
     * @param label how the cell is named (the params that tell the compared cells apart)
     */
    public String line(String label) {
        String has = headLacks ? "BASE" : "HEAD";
        String lacks = headLacks ? "HEAD" : "BASE";
        return wholeCell() ? "cell " + label + ": measured in " + has + " only; " + lacks + " has no fork of it"
                : "cell " + label + ": " + metric + " measured in " + has + " only; " + lacks + "'s forks of it have no "
                + metric;
    }

    /** The side that lacks it, as the tables name the sides. */
    public String lackingSide() {
        return headLacks ? "candidate" : "baseline";
    }

    /**
     * What the gate lacks on one side: each cell only one side has that holds a gated metric there (BASE's cells
     * first), then, for each cell both have, each gated metric only one side has.
     */
    static List<Missing> of(Map<CellKey, CellResults> base, Map<CellKey, CellResults> cand, Gated gated) {
        List<Missing> out = new ArrayList<>();
        oneSidedCells(base, cand, gated, true, out);
        oneSidedCells(cand, base, gated, false, out);
        for (Map.Entry<CellKey, CellResults> e : base.entrySet()) {
            CellResults c = cand.get(e.getKey());
            if (c != null) {
                oneSidedMetrics(e.getKey(), e.getValue().metrics(), c.metrics().keySet(), gated, true, out);
                oneSidedMetrics(e.getKey(), c.metrics(), e.getValue().metrics().keySet(), gated, false, out);
            }
        }
        return out;
    }

    /** Whether a metric of a cell, given that side's metrics of the cell, is in the gate. */
    interface Gated extends BiPredicate<String, Map<String, MetricSeries>> {
    }

    private static void oneSidedCells(Map<CellKey, CellResults> side, Map<CellKey, CellResults> other, Gated gated,
                                      boolean headLacks, List<Missing> out) {
        for (Map.Entry<CellKey, CellResults> e : side.entrySet()) {
            Map<String, MetricSeries> metrics = e.getValue().metrics();
            if (!other.containsKey(e.getKey()) && metrics.keySet().stream().anyMatch(m -> gated.test(m, metrics))) {
                out.add(new Missing(e.getKey(), "", headLacks));
            }
        }
    }

    private static void oneSidedMetrics(CellKey key, Map<String, MetricSeries> side, Set<String> other, Gated gated,
                                        boolean headLacks, List<Missing> out) {
        for (String m : side.keySet()) {
            if (!other.contains(m) && gated.test(m, side)) {
                out.add(new Missing(key, m, headLacks));
            }
        }
    }
}

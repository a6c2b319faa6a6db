package dev.inferbench.compare;

import dev.inferbench.BenchException;
import dev.inferbench.stats.Direction;
import dev.inferbench.stats.ForkMeans;
import dev.inferbench.stats.Interval;
import dev.inferbench.stats.Percentiles;
import dev.inferbench.stats.Ratio;
import dev.inferbench.stats.Verdict;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Matches the cells of two runs by benchmark and params and compares every metric both sides have. */
public final class Comparer {

    /** The outcome: matched rows, and the cells only one side has. */
    public record Report(double minEffect, double confidence, List<Comparison> rows, List<CellKey> onlyBaseline,
                         List<CellKey> onlyCandidate) {

        public boolean anyWorse() {
            return rows.stream().anyMatch(r -> r.verdict() == Verdict.WORSE);
        }
    }

    private Comparer() {
    }

    /** @param minEffect the smallest relative change that counts, e.g. 0.03 */
    public static Report compare(List<CellResults> baseline, List<CellResults> candidate, double minEffect,
                                 double confidence) throws BenchException {
        Map<CellKey, CellResults> base = byKey(baseline);
        Map<CellKey, CellResults> cand = byKey(candidate);
        List<Comparison> rows = new ArrayList<>();
        for (Map.Entry<CellKey, CellResults> e : base.entrySet()) {
            CellResults b = e.getValue();
            CellResults c = cand.get(e.getKey());
            if (c == null) {
                continue;
            }
            if (!b.mode().equals(c.mode())) {
                throw new BenchException("cell '" + e.getKey().label() + "' was measured in mode " + b.mode()
                        + " in the baseline but " + c.mode() + " in the candidate; expected the same JMH mode (-bm) on both sides");
            }
            for (MetricSeries mb : b.metrics().values()) {
                MetricSeries mc = c.metrics().get(mb.name());
                if (mc != null) {
                    rows.add(row(e.getKey(), mb, mc, minEffect, confidence));
                }
            }
        }
        List<CellKey> onlyBase = base.keySet().stream().filter(k -> !cand.containsKey(k)).toList();
        List<CellKey> onlyCand = cand.keySet().stream().filter(k -> !base.containsKey(k)).toList();
        if (rows.isEmpty()) {
            throw new BenchException("no cell of the baseline matches a cell of the candidate (" + base.size() + " vs "
                    + cand.size() + " cells); expected runs of the same benchmark with the same params");
        }
        return new Report(minEffect, confidence, rows, onlyBase, onlyCand);
    }

    private static Comparison row(CellKey key, MetricSeries b, MetricSeries c, double minEffect, double confidence)
            throws BenchException {
        if (!b.unit().equals(c.unit())) {
            throw new BenchException("metric '" + b.name() + "' of cell '" + key.label() + "' is in " + b.unit()
                    + " in the baseline but " + c.unit() + " in the candidate; expected the same unit (-tu) on both sides");
        }
        Interval bi;
        Interval ci;
        Interval ratio;
        if (b.isPercentile()) {
            Percentiles pb = new Percentiles(b.histograms());
            Percentiles pc = new Percentiles(c.histograms());
            bi = pb.interval(b.percentile(), confidence);
            ci = pc.interval(b.percentile(), confidence);
            ratio = Percentiles.ratio(pb, pc, b.percentile(), confidence);
        } else {
            bi = ForkMeans.interval(b.forks(), confidence);
            ci = ForkMeans.interval(c.forks(), confidence);
            ratio = Ratio.interval(b.forks(), c.forks(), confidence);
        }
        Direction dir = Directions.of(b.name(), b.unit());
        return new Comparison(key, b.name(), b.unit(), dir, Directions.isTime(b.name(), b.unit()), bi, ci, ratio,
                Verdict.of(ratio, dir, minEffect));
    }

    private static Map<CellKey, CellResults> byKey(List<CellResults> cells) {
        Map<CellKey, CellResults> out = new TreeMap<>();
        cells.forEach(c -> out.put(c.key(), c));
        return out;
    }
}

package dev.inferbench.compare;

import java.util.HashSet;
import java.util.HashMap;
import dev.inferbench.BenchException;
import dev.inferbench.stats.Direction;
import dev.inferbench.stats.ForkMeans;
import dev.inferbench.stats.Interval;
import dev.inferbench.stats.Ratio;
import dev.inferbench.stats.Verdict;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
        Set<CellKey> severalModes = severalModes(baseline, candidate);
        Map<CellKey, CellResults> base = byKey(baseline, severalModes);
        Map<CellKey, CellResults> cand = byKey(candidate, severalModes);
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
        // percentiles too: each fork's percentile is one value, and forks are the unit (the fork bootstrap has only a
        // handful of distinct resamples at 2-5 forks, and its intervals flagged 12 % of A/A comparisons at 3 forks)
        bi = ForkMeans.interval(b.forks(), confidence);
        ci = ForkMeans.interval(c.forks(), confidence);
        ratio = Ratio.interval(b.forks(), c.forks(), confidence);
        Direction dir = Directions.of(b.name(), b.unit());
        return new Comparison(key, b.name(), b.unit(), dir, Directions.isTime(b.name(), b.unit()), bi, ci, ratio,
                Verdict.of(ratio, dir, minEffect));
    }

    /**
     * The cells that either run measured in more than one mode: each of their modes is a cell of its own (one map
     * entry per mode, instead of the last mode overwriting the others and hiding their changes).
     */
    private static Set<CellKey> severalModes(List<CellResults> baseline, List<CellResults> candidate) {
        Set<CellKey> several = new HashSet<>();
        for (List<CellResults> run : List.of(baseline, candidate)) {
            Map<CellKey, String> modes = new HashMap<>();
            for (CellResults c : run) {
                String earlier = modes.putIfAbsent(c.key(), c.mode());
                if (earlier != null && !earlier.equals(c.mode())) {
                    several.add(c.key());
                }
            }
        }
        return several;
    }

    private static Map<CellKey, CellResults> byKey(List<CellResults> cells, Set<CellKey> severalModes) {
        Map<CellKey, CellResults> out = new TreeMap<>();
        cells.forEach(c -> out.put(severalModes.contains(c.key()) ? c.key().withMode(c.mode()) : c.key(), c));
        return out;
    }
}

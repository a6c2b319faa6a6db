package dev.inferbench.compare;

import dev.inferbench.results.MetricCatalogue;
import dev.inferbench.results.MetricEntry;

import java.util.HashSet;
import java.util.HashMap;
import dev.inferbench.BenchException;
import dev.inferbench.stats.Direction;
import dev.inferbench.stats.ForkMeans;
import dev.inferbench.stats.Interval;
import dev.inferbench.stats.Ratio;
import dev.inferbench.stats.TwoStage;
import dev.inferbench.stats.Verdict;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Matches the cells of two runs by benchmark and params and compares every metric both sides have. */
public final class Comparer {

    /**
     * The outcome: matched rows, the cells only one side has, and the gate: the metrics whose regressions fail a CI
     * job, how many rows that family holds, and the gated cells and metrics one side lacks ({@link Missing}), which
     * have no row; and per matched cell the fork pairs its forks' times show, usable or not ({@link ForkPairs}): what
     * says why a cell whose forks took turns was still compared unpaired.
     */
    public record Report(double minEffect, double confidence, List<Comparison> rows, List<CellKey> onlyBaseline,
                         List<CellKey> onlyCandidate, Set<String> gate, int family, List<Missing> missing,
                         Map<CellKey, ForkPairs> forkPairs) {

        /** The rows of the gate family that regressed at the family's confidence: what fails a CI job. */
        public List<Comparison> regressions() {
            return rows.stream().filter(r -> r.gateVerdict() == Verdict.WORSE).toList();
        }

        /** The rows of the gate family that could not tell (neither worse nor better nor the same). */
        public List<Comparison> undecided() {
            return rows.stream().filter(r -> r.gateVerdict() == Verdict.INCONCLUSIVE).toList();
        }

        public boolean anyWorse() {
            return !regressions().isEmpty();
        }

        /** The gated cells and metrics that BASE measured and HEAD lacks: what {@code --missing regression} fails. */
        public List<Missing> lostByHead() {
            return missing.stream().filter(Missing::headLacks).toList();
        }

        /** The confidence of each gated row's interval: the family's error rate split over its rows (Bonferroni). */
        public double gateConfidence() {
            return perRow(confidence, family);
        }
    }

    /** The gate's default family: each cell's primary metric (time, or throughput for thrpt cells). */
    public static final String PRIMARY = "primary";
    public static final Set<String> PRIMARY_ONLY = Set.of(PRIMARY);

    /** One metric both sides of a cell have. */
    private record Pair(CellKey key, MetricSeries baseline, MetricSeries candidate, boolean gated, ForkPairs forks) {
    }

    private Comparer() {
    }

    /** With the default gate: each cell's primary metric. */
    public static Report compare(List<CellResults> baseline, List<CellResults> candidate, double minEffect,
                                 double confidence) throws BenchException {
        return compare(baseline, candidate, minEffect, confidence, PRIMARY_ONLY);
    }

    /**
     * @param minEffect  the smallest relative change that counts, e.g. 0.03
     * @param confidence of each row's interval, and 1 - the error rate of the whole gate family
     * @param gate       the metrics a regression of which fails the gate ({@link #PRIMARY} for each cell's primary
     *                   metric); every row of every metric is still compared and shown
     */
    public static Report compare(List<CellResults> baseline, List<CellResults> candidate, double minEffect,
                                 double confidence, Set<String> gate) throws BenchException {
        return compare(baseline, candidate, minEffect, confidence, gate, false);
    }

    /** @param keepDisturbed whether fork pairs run while the machine was disturbed count ({@link ForkPairs}) */
    public static Report compare(List<CellResults> baseline, List<CellResults> candidate, double minEffect,
                                 double confidence, Set<String> gate, boolean keepDisturbed) throws BenchException {
        return compare(baseline, candidate, minEffect, confidence, gate, keepDisturbed, Integer.MAX_VALUE);
    }

    /**
     * @param pilot for a comparison whose number of pairs a pilot of that many pairs chose ({@link TwoStage}): paired
     *              intervals take their spread from the first {@code pilot} pairs; {@code Integer.MAX_VALUE} for a
     *              comparison of a number of pairs fixed in advance
     */
    public static Report compare(List<CellResults> baseline, List<CellResults> candidate, double minEffect,
                                 double confidence, Set<String> gate, boolean keepDisturbed, int pilot)
            throws BenchException {
        return compare(baseline, candidate, minEffect, confidence, gate, keepDisturbed, pilot, Double.NaN);
    }

    /**
     * @param precision the precision the pilot's stop question asked for ({@code --precision}); with it, a comparison
     *                  that the budget ended before the pairs its pilot asked for takes its spread from every pair
     *                  ({@link TwoStage}); NaN: Stein's interval whenever there is a pilot
     */
    public static Report compare(List<CellResults> baseline, List<CellResults> candidate, double minEffect,
                                 double confidence, Set<String> gate, boolean keepDisturbed, int pilot,
                                 double precision) throws BenchException {
        TwoStage.Plan plan = new TwoStage.Plan(pilot, precision, confidence);
        List<CellResults> b0 = baseline;
        baseline = withoutOneSidedParams(baseline, paramNames(candidate));
        candidate = withoutOneSidedParams(candidate, paramNames(b0));
        Set<CellKey> severalModes = severalModes(baseline, candidate);
        Map<CellKey, CellResults> base = byKey(baseline, severalModes);
        Map<CellKey, CellResults> cand = byKey(candidate, severalModes);
        List<Pair> pairs = new ArrayList<>();
        Map<CellKey, ForkPairs> forkPairs = new TreeMap<>();
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
            ForkPairs forks = ForkPairs.of(b.stamps(), c.stamps(), keepDisturbed);
            forkPairs.put(e.getKey(), forks);
            for (MetricSeries mb : b.metrics().values()) {
                MetricSeries mc = c.metrics().get(mb.name());
                if (mc != null && mb.supportedPerFork() && mc.supportedPerFork()) {
                    pairs.add(new Pair(e.getKey(), mb, mc, gated(gate, mb.name(), b.metrics()),
                            alignedWith(forks, b, mb, c, mc)));
                }
            }
        }
        int family = (int) pairs.stream().filter(Pair::gated).count();
        List<Comparison> rows = new ArrayList<>();
        for (Pair p : pairs) {
            rows.add(row(p.key(), p.baseline(), p.candidate(), p.forks(), minEffect, confidence,
                    p.gated() ? perRow(confidence, family) : Double.NaN, plan));
        }
        List<CellKey> onlyBase = base.keySet().stream().filter(k -> !cand.containsKey(k)).toList();
        List<CellKey> onlyCand = cand.keySet().stream().filter(k -> !base.containsKey(k)).toList();
        if (rows.isEmpty()) {
            throw new BenchException("no cell of the baseline matches a cell of the candidate (" + base.size() + " vs "
                    + cand.size() + " cells); expected runs of the same benchmark with the same params");
        }
        return new Report(minEffect, confidence, rows, onlyBase, onlyCand, Set.copyOf(gate), family,
                Missing.of(base, cand, (metric, metrics) -> gated(gate, metric, metrics)), forkPairs);
    }

    /** A side's cells under the keys {@link #compare} matches them by (the other side's params and modes applied). */
    static Map<CellKey, CellResults> keyed(List<CellResults> side, List<CellResults> other) {
        List<CellResults> mine = withoutOneSidedParams(side, paramNames(other));
        List<CellResults> theirs = withoutOneSidedParams(other, paramNames(side));
        return byKey(mine, severalModes(mine, theirs));
    }

    private static Set<String> paramNames(List<CellResults> cells) {
        Set<String> names = new HashSet<>();
        cells.forEach(c -> names.addAll(c.key().params().keySet()));
        return names;
    }

    /**
     * A param that only one side's cells have, with one value in all of them, is left out of that side's keys: a
     * parameter added to a benchmark between two commits ({@code callers}, at its default 1) measures what the other
     * commit measured without it, and the cells match. A param with several values on its side still tells cells
     * apart, and those cells have no partner.
     */
    static List<CellResults> withoutOneSidedParams(List<CellResults> side, Set<String> otherSide) {
        Map<String, Set<String>> values = new HashMap<>();
        side.forEach(c -> c.key().params().forEach((k, v) -> values.computeIfAbsent(k, x -> new HashSet<>()).add(v)));
        Set<String> drop = new HashSet<>();
        values.forEach((k, vs) -> {
            if (!otherSide.contains(k) && vs.size() == 1) {
                drop.add(k);
            }
        });
        if (drop.isEmpty() || otherSide.isEmpty()) {
            return side;
        }
        List<CellResults> out = new ArrayList<>();
        for (CellResults c : side) {
            Map<String, String> params = new TreeMap<>(c.key().params());
            params.keySet().removeAll(drop);
            out.add(c.withKey(new CellKey(c.key().benchmark(), c.key().mode(), params)));
        }
        return out;
    }

    /**
     * Whether a metric is in the gate: named, or the cell's primary metric (its first) when {@link #PRIMARY} is, and
     * with it what the catalogue gates by default (a generation cell's TTFT and TPOT, the times its users hold a
     * service to).
     */
    private static boolean gated(Set<String> gate, String metric, Map<String, MetricSeries> cellMetrics) {
        MetricEntry e = MetricCatalogue.find(metric);
        return gate.contains(metric) || gate.contains(PRIMARY) && (metric.equals(cellMetrics.keySet().iterator().next())
                || e != null && e.gated());
    }

    /** Each of {@code family} rows at the confidence that keeps the family's error rate at {@code 1 - confidence}. */
    static double perRow(double confidence, int family) {
        return family <= 1 ? confidence : 1 - (1 - confidence) / family;
    }

    /**
     * The cell's fork pairs for one metric: its series must hold one entry per stamped fork on both sides (a metric
     * that some forks lack cannot be matched fork by fork, and is compared unpaired).
     */
    private static ForkPairs alignedWith(ForkPairs forks, CellResults b, MetricSeries mb, CellResults c, MetricSeries mc) {
        return mb.forks().length == b.stamps().size() && mc.forks().length == c.stamps().size() ? forks : ForkPairs.NONE;
    }

    /**
     * The ratio's interval: from the per-pair log ratios when the forks were measured in pairs (at least
     * {@link ForkPairs#MIN_PAIRS}), else Welch's over the two sides as independent samples.
     */
    static Interval ratio(MetricSeries b, MetricSeries c, ForkPairs pairs, double confidence, TwoStage.Plan plan) {
        return pairs.usable()
                ? Ratio.paired(ForkPairs.select(b.forks(), pairs.baseline()), ForkPairs.select(c.forks(), pairs.candidate()),
                confidence, plan)
                : Ratio.interval(b.forks(), c.forks(), confidence);
    }

    /** The pair log ratios of a metric measured in pairs, in the order the pairs ran; empty when unpaired. */
    static double[] logRatios(MetricSeries b, MetricSeries c, ForkPairs pairs) {
        return pairs.usable() ? Ratio.logRatios(ForkPairs.select(b.forks(), pairs.baseline()),
                ForkPairs.select(c.forks(), pairs.candidate())) : new double[0];
    }

    /** @param gateConfidence the row's confidence in the gate family; NaN for a row outside the gate */
    private static Comparison row(CellKey key, MetricSeries b, MetricSeries c, ForkPairs pairs, double minEffect,
                                  double confidence, double gateConfidence, TwoStage.Plan plan) throws BenchException {
        if (!b.unit().equals(c.unit())) {
            throw new BenchException("metric '" + b.name() + "' of cell '" + key.label() + "' is in " + b.unit()
                    + " in the baseline but " + c.unit() + " in the candidate; expected the same unit (-tu) on both sides");
        }
        // percentiles too: each fork's percentile is one value, and forks are the unit (the fork bootstrap has only a
        // handful of distinct resamples at 2-5 forks, and its intervals flagged 12 % of A/A comparisons at 3 forks)
        Interval bi = ForkMeans.interval(b.forks(), confidence);
        Interval ci = ForkMeans.interval(c.forks(), confidence);
        Interval ratio = ratio(b, c, pairs, confidence, plan);
        MetricEntry metric = MetricCatalogue.of(b.name(), b.unit());
        Direction dir = metric.direction();
        Verdict gateVerdict = Double.isNaN(gateConfidence) ? null
                : Verdict.of(ratio(b, c, pairs, gateConfidence, plan), dir, minEffect);
        return new Comparison(key, b.name(), b.unit(), dir, metric.speed(), bi, ci, ratio,
                Verdict.of(ratio, dir, minEffect), gateVerdict, pairs.usable() ? pairs : ForkPairs.NONE,
                logRatios(b, c, pairs));
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

package dev.inferbench.findings;

import dev.inferbench.results.CellSummary;
import dev.inferbench.serve.ServingProfiler;
import dev.inferbench.serve.ServingSpec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The knee of a serving setting (every param but the rate) with an SLO. For a sweep, the highest offered rate met in
 * every fork before the first that was not; for a search ({@code rate=max}), the sustainable rate each fork's search
 * found, or a ceiling when the highest rate tried passed.
 */
public sealed interface Knee {

    /** The setting's first cell, whose params say whose knee it is. */
    CellSummary first();

    /** The setting's SLO as the cells name it ({@code p90<60ms}). */
    default String slo() {
        return first().params().get(ServingSpec.SLO);
    }

    /**
     * A rate search's knee.
     *
     * @param cell        the {@code rate=max} cell whose forks searched
     * @param ceilings    forks whose highest rate tried passed (no knee found there)
     * @param failing     the mean over forks of the lowest rate seen to fail, NaN when none was
     * @param behind      forks where the rate above the knee was invalid because the callers fell behind
     * @param late        forks where it was invalid because arrivals were late
     * @param nonMonotone pairs of rates, over the forks, met above one not met
     */
    record Search(CellSummary first, CellSummary cell, int forks, long ceilings, double failing, long behind, long late,
                  long nonMonotone) implements Knee {
        /** Every fork's highest rate tried passed: a ceiling, not a knee. */
        public boolean ceiling() {
            return ceilings == forks;
        }
    }

    /**
     * A sweep's knee.
     *
     * @param sweep    the setting's steps in the order run
     * @param met      the last rate met in every fork before the first that was not; null when the first was not
     * @param missed   the first rate not met in every fork; null when every rate was met
     * @param metAbove rates at or above {@code missed} that were met in every fork (the sweep was not monotone)
     */
    record Sweep(CellSummary first, List<CellSummary> sweep, CellSummary met, CellSummary missed,
                 List<CellSummary> metAbove) implements Knee {
    }

    /** Each setting's knees in the order of {@code cells}: the searches of a setting, then its sweep. */
    static List<Knee> of(List<CellSummary> cells) {
        Map<String, List<CellSummary>> bySetting = new LinkedHashMap<>();
        cells.stream().filter(c -> !"none".equals(c.params().getOrDefault(ServingSpec.SLO, "none")))
                .forEach(c -> bySetting.computeIfAbsent(ServingCells.setting(c, c.params().keySet()),
                        k -> new ArrayList<>()).add(c));
        List<Knee> knees = new ArrayList<>();
        for (List<CellSummary> group : bySetting.values()) {
            CellSummary first = group.get(0);
            for (CellSummary c : group) {
                if (ServingCells.isSearch(c)) {
                    knees.add(search(first, c));
                }
            }
            List<CellSummary> sweep = group.stream().filter(c -> !ServingCells.isSearch(c)).toList();
            if (!sweep.isEmpty()) {
                knees.add(sweep(first, sweep));
            }
        }
        return knees;
    }

    private static Search search(CellSummary first, CellSummary c) {
        int forks = c.mean().forks();
        // a fork whose search found a ceiling has no rate not met: JMH's mean over forks of serve.failing would halve
        return new Search(first, c, forks, count(c, ServingProfiler.CEILING, forks),
                c.extras().getOrDefault(ServingProfiler.FAILING, Double.NaN),
                count(c, ServingProfiler.LIMIT_BEHIND, forks), count(c, ServingProfiler.LIMIT_LATE, forks),
                count(c, ServingProfiler.NON_MONOTONE, forks));
    }

    private static Sweep sweep(CellSummary first, List<CellSummary> sweep) {
        CellSummary met = null;
        CellSummary missed = null;
        for (CellSummary c : sweep) {
            // an INVALID step never met it: serve.slo is 0 in its forks
            if (ForkOutcomes.of(c).metInEvery() && missed == null) {
                met = c;
            } else if (missed == null) {
                missed = c;
            }
        }
        List<CellSummary> above = sweep.subList(missed == null ? sweep.size() : sweep.indexOf(missed), sweep.size())
                .stream().filter(c -> ForkOutcomes.of(c).metInEvery()).toList();
        return new Sweep(first, sweep, met, missed, above);
    }

    private static long count(CellSummary c, String share, int forks) {
        return Math.round(c.extras().getOrDefault(share, 0.0) * forks);
    }
}

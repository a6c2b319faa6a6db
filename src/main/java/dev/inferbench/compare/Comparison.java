package dev.inferbench.compare;

import dev.inferbench.stats.Direction;
import dev.inferbench.stats.Interval;
import dev.inferbench.stats.PairDrift;
import dev.inferbench.stats.Verdict;

/**
 * One metric of one cell in both runs: each side's estimate with its interval, their ratio and the verdict.
 *
 * @param gateVerdict for a row of the gate family, the verdict of the ratio at the family's per-row confidence
 *                    (what fails a CI job); null for a row outside the gate
 * @param pairs       the fork pairs the ratio was built from; {@link ForkPairs#NONE} when the sides were compared as
 *                    independent samples (Welch)
 * @param logRatios   per pair, in the order the pairs ran, the log of the candidate's fork over the baseline's: what
 *                    a two-stage comparison's pilot and the drift check read; empty when unpaired
 */
public record Comparison(CellKey cell, String metric, String unit, Direction direction, boolean time,
                         Interval baseline, Interval candidate, Interval ratio, Verdict verdict, Verdict gateVerdict,
                         ForkPairs pairs, double[] logRatios) {

    public Comparison(CellKey cell, String metric, String unit, Direction direction, boolean time, Interval baseline,
                      Interval candidate, Interval ratio, Verdict verdict, Verdict gateVerdict, ForkPairs pairs) {
        this(cell, metric, unit, direction, time, baseline, candidate, ratio, verdict, gateVerdict, pairs, new double[0]);
    }

    /** Whether neighbouring pairs were alike, and the interval widened for it. */
    public PairDrift drift() {
        return PairDrift.of(logRatios);
    }

    public boolean paired() {
        return pairs.usable();
    }

    public boolean gated() {
        return gateVerdict != null;
    }

    /** The verdict as a table prints it: faster/slower for time metrics, better/worse for others. */
    public String verdictWord() {
        return verdict.word(time);
    }
}

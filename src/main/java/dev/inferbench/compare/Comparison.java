package dev.inferbench.compare;

import dev.inferbench.stats.Direction;
import dev.inferbench.stats.Interval;
import dev.inferbench.stats.Verdict;

/**
 * One metric of one cell in both runs: each side's estimate with its interval, their ratio and the verdict.
 *
 * @param gateVerdict for a row of the gate family, the verdict of the ratio at the family's per-row confidence
 *                    (what fails a CI job); null for a row outside the gate
 * @param pairs       the fork pairs the ratio was built from; {@link ForkPairs#NONE} when the sides were compared as
 *                    independent samples (Welch)
 */
public record Comparison(CellKey cell, String metric, String unit, Direction direction, boolean time,
                         Interval baseline, Interval candidate, Interval ratio, Verdict verdict, Verdict gateVerdict,
                         ForkPairs pairs) {

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

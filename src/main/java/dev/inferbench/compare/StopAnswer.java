package dev.inferbench.compare;

import dev.inferbench.stats.TwoStage;

import java.util.Locale;

/**
 * The answer to "run another pair of forks?" that compare-commits asks after a pair: one line, whose first word
 * ({@code stop} or {@code continue}) says what it does. It depends only on how many
 * pairs each gated row has and on the spread of its first {@code pilot} pairs ({@link TwoStage}), never on where an
 * interval lies or what a verdict says, so the looks cost the gate nothing of its error rate.
 *
 * <p>A {@code continue} line ends with the pair before which no stop can come ({@code no stop before pair K}): a row
 * has at most one pair per pair run, and needs the pairs its pilot asked for (the pilot's own pairs while the pilot
 * is not complete), so until K pairs have run every answer would be {@code continue}. compare-commits asks again
 * only then: each question has both launchers write their merged results.
 *
 * @param stop     whether every gated row has the pairs its pilot asked for
 * @param needed   the most pairs any gated row's pilot asked for; -1 while a pilot is not complete
 * @param nextLook the fewest pairs run at which the answer can be {@code stop}
 * @param reason   the rest of the line, for the log
 */
public record StopAnswer(boolean stop, int needed, int nextLook, String reason) {

    /**
     * @param pilot    pairs of the pilot
     * @param maxPairs the most pairs the comparison may run
     */
    public static StopAnswer of(Comparer.Report report, double precision, int pilot, int maxPairs) {
        int needed = 0;
        int nextLook = 0;
        String waiting = null;
        String behind = null;
        for (Comparison row : report.rows()) {
            if (!row.gated()) {
                continue;
            }
            int have = row.pairs().count();
            String label = row.cell().label() + " " + row.metric();
            int want = TwoStage.pairsNeeded(row.logRatios(), pilot, precision, row.ratio().confidence(), maxPairs);
            if (want < 0) {
                // the pilot is not complete: whatever it asks for, it is at least its own pairs
                nextLook = Math.max(nextLook, pilot);
                if (waiting == null) {
                    waiting = String.format(Locale.ROOT, "pilot: %d of %d pairs (%s)", have, pilot, label);
                }
                continue;
            }
            needed = Math.max(needed, want);
            nextLook = Math.max(nextLook, want);
            if (have < want && behind == null) {
                behind = String.format(Locale.ROOT, "%d of the %d pairs its pilot asked for (%s)", have, want, label);
            }
        }
        if (waiting != null) {
            return new StopAnswer(false, -1, nextLook, waiting);
        }
        return behind == null
                ? new StopAnswer(true, needed, nextLook, "every gated row has the pairs its pilot asked for (" + needed + ")")
                : new StopAnswer(false, needed, nextLook, behind);
    }

    /** "stop: ..." or "continue: ...; no stop before pair K". */
    public String line() {
        return stop ? "stop: " + reason
                : String.format(Locale.ROOT, "continue: %s; no stop before pair %d", reason, nextLook);
    }
}

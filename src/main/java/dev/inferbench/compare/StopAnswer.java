package dev.inferbench.compare;

import dev.inferbench.stats.TwoStage;

import java.util.Locale;

/**
 * The answer to "run another pair of forks?" that tools/compare-commits.sh asks {@code compare --stop-status} after
 * each pair: one line, whose first word ({@code stop} or {@code continue}) is all the script reads. It depends only on
 * how many pairs each gated row has and on the spread of its first {@code pilot} pairs ({@link TwoStage}), never on
 * where an interval lies or what a verdict says, so the looks cost the gate nothing of its error rate.
 *
 * @param stop   whether every gated row has the pairs its pilot asked for
 * @param needed the most pairs any gated row's pilot asked for; -1 while a pilot is not complete
 * @param reason the rest of the line, for the log
 */
public record StopAnswer(boolean stop, int needed, String reason) {

    /**
     * @param pilot    pairs of the pilot
     * @param maxPairs the most pairs the comparison may run
     */
    public static StopAnswer of(Comparer.Report report, double precision, int pilot, int maxPairs) {
        int needed = 0;
        String behind = null;
        for (Comparison row : report.rows()) {
            if (!row.gated()) {
                continue;
            }
            int have = row.pairs().count();
            String label = row.cell().label() + " " + row.metric();
            int want = TwoStage.pairsNeeded(row.logRatios(), pilot, precision, row.ratio().confidence(), maxPairs);
            if (want < 0) {
                return new StopAnswer(false, -1, String.format(Locale.ROOT, "pilot: %d of %d pairs (%s)",
                        have, pilot, label));
            }
            needed = Math.max(needed, want);
            if (have < want && behind == null) {
                behind = String.format(Locale.ROOT, "%d of the %d pairs its pilot asked for (%s)", have, want, label);
            }
        }
        return behind == null
                ? new StopAnswer(true, needed, "every gated row has the pairs its pilot asked for (" + needed + ")")
                : new StopAnswer(false, needed, behind);
    }

    /** "stop: ..." or "continue: ...". */
    public String line() {
        return (stop ? "stop" : "continue") + ": " + reason;
    }
}

package dev.inferbench.flow;

import dev.inferbench.compare.Comparer;
import dev.inferbench.compare.Comparison;
import dev.inferbench.compare.Gate;
import dev.inferbench.flow.CompareFlow.Ending;
import dev.inferbench.report.CompareTable;
import dev.inferbench.report.Units;
import dev.inferbench.stats.Interval;
import dev.inferbench.stats.Power;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * How {@code compare}'s gate ends, and the lines that say why. A gated regression (with --fail-on-regression) or a
 * failed threshold fails. Under --fail-on-regression, a gated cell or metric that one side lacks has no row and so
 * no verdict: it could not tell, whatever --inconclusive says, or fails where HEAD lost what BASE measured and
 * --missing regression asks for that. Last, a gated row that could not tell, unless such rows pass.
 */
final class GateEnding {

    private GateEnding() {
    }

    /** @param undecided how many gated rows could not tell (their lines are printed already) */
    static Ending of(CompareFlow.Request request, Comparer.Report report, List<Gate.Check> checks, int undecided,
                     PrintStream notes) {
        boolean gating = request.failOnRegression();
        boolean regression = gating && report.anyWorse();
        if (regression) {
            notes.println(String.format(Locale.ROOT, "inferbench: regression in %d of the gate's %d rows: each ratio's"
                            + " %s %% interval lies wholly above no change and reaches past the minimum effect of %s %%"
                            + " (--fail-on-regression)", report.regressions().size(), report.family(),
                    CompareFlow.percent(report.gateConfidence()), CompareFlow.percent(request.minEffect())));
        }
        if (gating) {
            report.missing().forEach(m -> notes.println(m.line(m.cell().label(CompareTable.varying(report)))));
        }
        if (regression || checks.stream().anyMatch(c -> !c.passed())) {
            return Ending.FAILED;
        }
        int lost = report.lostByHead().size();
        if (gating && request.lostFails() && lost > 0) {
            notes.println("inferbench: HEAD lacks " + count(lost) + " that BASE measured; exit "
                    + Ending.FAILED.exitCode() + " (--missing regression)");
            return Ending.FAILED;
        }
        if (gating && !report.missing().isEmpty()) {
            notes.println("inferbench: " + count(report.missing().size()) + " measured on one side only: no row, so no"
                    + " verdict; exit " + Ending.UNDECIDED.exitCode()
                    + (lost == 0 ? "" : " (--missing regression to fail where HEAD lacks what BASE measured)"));
            return Ending.UNDECIDED;
        }
        if (gating && undecided > 0 && !request.inconclusivePasses()) {
            notes.println("inferbench: could not tell in " + undecided + " of the gate's " + report.family()
                    + " rows: no change shown, and none ruled out down to the minimum effect; exit "
                    + Ending.UNDECIDED.exitCode()
                    + " (--inconclusive pass to let it pass)");
            return Ending.UNDECIDED;
        }
        return Ending.PASS;
    }

    /**
     * What to do about a cell with too few forks for an interval: more forks a side, an option of the run that made
     * it, or pairs of forks, which compare-commits runs.
     */
    static final String MORE_FORKS = "rerun each side with -f " + CompareTable.FORKS_NEEDED + " or more (java -jar"
            + " target/benchmarks.jar -f N), or both with compare-commits, which runs their forks in pairs";

    /**
     * "could not tell: <cell> time 1.012 [0.951, 1.077] (paired, 10 pairs): this comparison sees changes of 11 % or
     * more; rerun with compare-commits --turns or more --forks"; where the forks already took turns, more
     * --forks or more iterations a fork (-i, which the script passes to JMH).
     */
    static String couldNotTell(Comparison r, String cell, boolean turns, boolean shortTurns) {
        Interval i = r.ratio();
        if (CompareTable.tooFewForks(r)) {
            return String.format(Locale.ROOT, "could not tell: %s %s %.3f: %s (%s)", cell, r.metric(), i.estimate(),
                    CompareTable.tooFewNote(r), MORE_FORKS);
        }
        double visible = i.known() ? Power.visibleChange(i) : Double.NaN;
        String sees = !i.known() ? "no interval, so no change it could see"
                : Double.isNaN(visible) ? "too few forks for an interval (at least 2 a side, 3 pairs)"
                : String.format(Locale.ROOT, "this comparison sees changes of %s or more (95 %% power)",
                visible < 1 ? String.format(Locale.ROOT, "%.0f %%", Math.max(1, Math.ceil(visible * 100)))
                        : String.format(Locale.ROOT, "%.0fx", 1 + visible));
        return String.format(Locale.ROOT, "could not tell: %s %s %s (%s): %s; %s",
                cell, r.metric(), CompareTable.ratioText(r),
                r.paired() ? "paired, " + r.pairs().count() + " pairs" : "unpaired, " + i.forks() + " forks",
                sees, turns ? (microseconds(r) ? (shortTurns ? (trimmed(r) ? LONGER : TRIM) : SHORT_TURNS)
                        : "rerun compare-commits with more --forks, or more"
                        + " iterations a fork (-i N)")
                        : "rerun with compare-commits --turns (the two sides' iterations a second apart), or"
                        + " with more --forks");
    }

    /**
     * The hint for a cell of calls under {@value #SHORT_CALL_MS} ms compared in turns: one-second turns let a stretch of
     * the machine that slows every call by half hit one side's turn and not the other's; turns of 100 ms spread a
     * pair's ratio less (statistics.md, "Microsecond cells").
     */
    static final String SHORT_TURNS = "rerun compare-commits --turns with shorter turns and more of them"
            + " (-i 20 -r 100ms), both sides on one CPU and another kept busy, the trimmed mean gated (--pin 1"
            + " --keep-busy 0 --gate trimmed)";
    /**
     * The hint where the turns were short but the mean was gated: calls of milliseconds (the thread off its CPU) carry
     * most of such a cell's mean; the trimmed mean leaves them out (statistics.md, "Microsecond cells").
     */
    static final String TRIM = "the turns were already short; rerun with both sides on one CPU and another kept busy,"
            + " the trimmed mean gated (--pin 1 --keep-busy 0 --gate trimmed), which leaves out the stalls of"
            + " milliseconds";
    private static final double SHORT_CALL_MS = 0.1;
    /** A measured iteration this short or shorter is a short turn already. */
    static final double SHORT_TURN_SECONDS = 0.2;
    /**
     * The hint where the turns were already short: only more pairs narrow the interval; a few percent on such a cell
     * may stay beyond a shared machine (statistics.md, "Microsecond cells").
     */
    static final String LONGER = "the turns were already short; rerun compare-commits with a longer --budget or more"
            + " --forks, or on a machine of its own";

    private static boolean trimmed(Comparison r) {
        return r.metric().equals(dev.inferbench.results.jmh.MeasuredCell.TRIMMED);
    }

    /** Whether the baseline's call is under {@link #SHORT_CALL_MS} ms (a time metric in a time unit). */
    private static boolean microseconds(Comparison r) {
        double s = Units.seconds(r.unit());
        return r.time() && !Double.isNaN(s) && r.baseline().estimate() * s < SHORT_CALL_MS / 1e3;
    }

    /** "1 gated cell or metric", "2 gated cells or metrics" */
    private static String count(int n) {
        return n + (n == 1 ? " gated cell or metric" : " gated cells or metrics");
    }
}

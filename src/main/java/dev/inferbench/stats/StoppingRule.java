package dev.inferbench.stats;

/**
 * "Is this cell measured well enough?": the one rule behind {@code --precision P} of a run and the adaptive
 * stopping of {@code tools/compare-commits.sh}, which look again after every fork (pair). Looking again is testing
 * again, so the rule never stops on the result a gate acts on:
 * <ul>
 *   <li>a cell's mean: its interval's larger half is at most {@code precision} of the estimate;</li>
 *   <li>a candidate/baseline ratio: its interval is that narrow. Never on a verdict: a regression is declared once,
 *       by the compare at the end, and the width of a log-ratio interval does not depend on where it lies, so the
 *       adaptive A/B keeps the error rate of a single look (stopping on the first WORSE or BETTER flagged 2.2 % of
 *       simulated A/A comparisons as slower; stopping on SAME as well, which the rule did before issue 24's verdict
 *       rule, let the comparisons that were not yet "same" run on and raised "faster" to 0.8 % instead of at most
 *       0.5 %: {@code SequentialStoppingTest}).</li>
 * </ul>
 * Both need at least {@link #MIN_FORKS} forks: stopping at the first narrow interval favours forks that happen to
 * agree, and from 3 forks a 95 % interval covered the truth 91 % of the time, from 8 forks 93-95 %.
 */
public final class StoppingRule {
    /** Forks (per side) before any stop. */
    public static final int MIN_FORKS = 8;
    /** Pairs of the pilot that fixes how many pairs an adaptive A/B runs ({@link TwoStage}). */
    public static final int PILOT_PAIRS = 8;

    private StoppingRule() {
    }

    /** For one cell's mean. */
    public static boolean precise(Interval mean, double precision) {
        return mean.forks() >= MIN_FORKS && mean.known() && mean.relativeError() <= precision;
    }

    /** For a candidate/baseline ratio: precise enough. */
    public static boolean settled(Interval ratio, double precision) {
        if (ratio.forks() < MIN_FORKS || !ratio.known()) {
            return false;
        }
        return ratio.relativeError() <= precision;
    }
}

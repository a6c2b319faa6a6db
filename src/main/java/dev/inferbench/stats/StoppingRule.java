package dev.inferbench.stats;

/**
 * "Is this cell measured well enough?": the rule behind {@code --precision P} of a run, which looks again after every
 * fork. Looking again is testing again, so the rule never stops on the result a gate acts on: a cell's mean stops
 * when its interval's larger half is at most {@code precision} of the estimate, from {@link #MIN_FORKS} forks
 * (stopping at the first narrow interval favours forks that happen to agree; from 3 forks a 95 % interval covered
 * the truth 91 % of the time, from 8 forks 93-95 %). {@link #settled} is the same test on a ratio, which compare
 * reports; an adaptive A/B between commits does not stop on it: stopping on a ratio's width re-estimates the spread
 * at every look and lifted the A/A fail rate above nominal (0.7-1.0 % at a nominal 0.5 %), so compare-commits
 * runs the number of pairs its pilot chose ({@link TwoStage}, {@link #PILOT_PAIRS}).
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

    /** For a candidate/baseline ratio: precise enough (what compare's "settled" line counts). */
    public static boolean settled(Interval ratio, double precision) {
        if (ratio.forks() < MIN_FORKS || !ratio.known()) {
            return false;
        }
        return ratio.relativeError() <= precision;
    }
}

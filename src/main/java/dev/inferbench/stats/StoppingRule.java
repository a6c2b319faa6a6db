package dev.inferbench.stats;

/**
 * "Is this cell measured well enough?": the one rule behind {@code --precision P} of a run and the adaptive
 * stopping of {@code tools/compare-commits.sh}. A cell (or a ratio of two cells) needs no more forks once its
 * interval's larger half is at most {@code precision} of its estimate, or, for a ratio, once its verdict can no
 * longer be inconclusive. Both need at least {@link Split#MIN_FORKS} forks, so that two lucky forks cannot stop a run.
 */
public final class StoppingRule {
    private StoppingRule() {
    }

    /** For one cell's mean. */
    public static boolean precise(Interval mean, double precision) {
        return mean.forks() >= Split.MIN_FORKS && mean.known() && mean.relativeError() <= precision;
    }

    /** For a candidate/baseline ratio: precise enough, or already decided either way. */
    public static boolean settled(Interval ratio, Direction direction, double precision, double minEffect) {
        if (ratio.forks() < Split.MIN_FORKS || !ratio.known()) {
            return false;
        }
        Verdict v = Verdict.of(ratio, direction, minEffect);
        return ratio.relativeError() <= precision || v == Verdict.BETTER || v == Verdict.WORSE || v == Verdict.SAME;
    }
}

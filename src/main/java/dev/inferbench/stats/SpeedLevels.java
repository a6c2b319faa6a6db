package dev.inferbench.stats;

import java.util.Arrays;

/**
 * Stretches in which every call of a cell was slower: each measured iteration's median call against the cell's
 * lowest level. A median moves with the bulk of the calls, not with a few long ones (a GC pause, a descheduled call),
 * so an iteration whose median sits well above the lowest level is one in which the machine ran the same code
 * slower throughout (on a shared VM: the host's other guests); such stretches, seconds long, fall into some forks and
 * not others and so set much of the fork-to-fork spread of microsecond cells.
 *
 * <p>A diagnostic only: it reads the benchmark's own calls, so no rule that keeps or drops a fork may use it (the
 * headline's rule reads the machine record alone, statistics.md).
 *
 * @param iterations  the iterations read
 * @param slow        those whose median is at least {@link #STEP} times the lowest level
 * @param lowest      the lowest level: the 10th percentile of the iterations' medians (interpolated)
 * @param slowLevel   the median of the slow iterations' medians over the lowest level; NaN when none is slow
 * @param forksHit    the forks with at least one slow iteration
 * @param forks       the forks read
 */
public record SpeedLevels(int iterations, int slow, double lowest, double slowLevel, int forksHit, int forks) {
    /** An iteration whose median call is this many times the lowest level or more is a slow one. */
    public static final double STEP = 1.25;

    /** @param medians per fork, each measured iteration's median call */
    public static SpeedLevels of(double[][] medians) {
        double[] all = Arrays.stream(medians).flatMapToDouble(Arrays::stream).filter(Double::isFinite).sorted().toArray();
        double lowest = Percentiles.interpolated(all, 0.1);
        int slow = 0;
        int hit = 0;
        double[] ratios = new double[all.length];
        for (double[] fork : medians) {
            boolean any = false;
            for (double m : fork) {
                if (Double.isFinite(m) && m >= STEP * lowest) {
                    ratios[slow++] = m / lowest;
                    any = true;
                }
            }
            hit += any ? 1 : 0;
        }
        double level = slow == 0 ? Double.NaN : Percentiles.median(Arrays.copyOf(ratios, slow));
        return new SpeedLevels(all.length, slow, lowest, level, hit, medians.length);
    }
}

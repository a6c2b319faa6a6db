package dev.inferbench.stats;

import java.util.ArrayList;
import java.util.List;

/**
 * A mean of a fork's timed calls without its stalls: per iteration, the mean of the calls shorter than
 * {@link #LIMIT} times the fork's own median call (all its iterations pooled).
 *
 * <p>Why this figure. On calls of microseconds, a call the OS takes the thread off its CPU for lasts milliseconds,
 * a thousand calls' worth: a few such calls in an iteration carry most of its time and move a fork's mean by tens of
 * percent, whatever the code did (docs/statistics.md, "Microsecond cells"). The median does not see them, but it
 * does not see a change that slows one call in twenty either. Cutting at a multiple of the fork's own median keeps
 * every call of the code's own cost, and the cut scales with the fork: if every call of one side takes c times as
 * long, its median and its cut are c times the other's, the same calls are kept, and the ratio of the two figures is
 * c. What the figure leaves out is said where it is shown: calls of more than {@link #LIMIT} times the typical one.
 */
public final class TrimmedMean {
    /** Calls this many times a fork's median or longer are left out. */
    public static final double LIMIT = 4;

    private TrimmedMean() {
    }

    /**
     * @param forks per fork, per iteration, its timed calls as flat {@code value0, count0, value1, count1, ...} bins
     *              (JMH's SampleTime histograms)
     * @return per fork, per iteration, the mean of its calls under {@link #LIMIT} times the fork's median; NaN for an
     *         iteration with no such call
     */
    public static double[][] perIteration(List<List<double[]>> forks) {
        double[][] out = new double[forks.size()][];
        for (int f = 0; f < forks.size(); f++) {
            List<double[]> iterations = forks.get(f);
            double cut = LIMIT * median(iterations);
            out[f] = new double[iterations.size()];
            for (int i = 0; i < iterations.size(); i++) {
                out[f][i] = meanBelow(iterations.get(i), cut);
            }
        }
        return out;
    }

    /** The median call of a fork, all its iterations' bins pooled; NaN without calls. */
    static double median(List<double[]> iterations) {
        List<double[][]> pairs = new ArrayList<>();
        for (double[] bins : iterations) {
            double[][] p = new double[bins.length / 2][];
            for (int i = 0; i + 1 < bins.length; i += 2) {
                p[i / 2] = new double[]{bins[i], Double.isNaN(bins[i + 1]) ? 0 : bins[i + 1]};
            }
            pairs.add(p);
        }
        return new Percentiles(pairs).estimate(50);
    }

    private static double meanBelow(double[] bins, double cut) {
        double sum = 0;
        double n = 0;
        for (int i = 0; i + 1 < bins.length; i += 2) {
            double count = bins[i + 1];
            if (bins[i] < cut && !Double.isNaN(count)) {
                sum += bins[i] * count;
                n += count;
            }
        }
        return n == 0 ? Double.NaN : sum / n;
    }
}

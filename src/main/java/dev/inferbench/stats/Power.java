package dev.inferbench.stats;

import java.util.SplittableRandom;

/**
 * How often {@code compare} flags a slowdown, by simulation of the two-level model with given variance components:
 * each side gets k forks of n iterations, fork effects and iteration noise drawn as normals, the candidate's true
 * mean multiplied by {@code 1 + slowdown}; the rate is the share of simulated comparisons whose {@link Verdict} is
 * WORSE. At slowdown 0 it is the false-alarm rate of an A/A comparison: the share flagged either way (WORSE or
 * BETTER). Seeded: the same inputs give the same rate.
 */
public final class Power {
    private Power() {
    }

    public static double rate(VarianceComponents vc, int forks, int iterations, double slowdown, double minEffect,
                              int trials, long seed) {
        return rate(vc, forks, iterations, forks, iterations, slowdown, minEffect, trials, seed);
    }

    /** As above, with sides of different shapes: the baseline's forks and iterations, then the candidate's. */
    public static double rate(VarianceComponents vc, int baseForks, int baseIterations, int candidateForks,
                              int candidateIterations, double slowdown, double minEffect, int trials, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        int flagged = 0;
        for (int t = 0; t < trials; t++) {
            double[][] base = simulate(vc, vc.mean(), baseForks, baseIterations, rng);
            double[][] cand = simulate(vc, vc.mean() * (1 + slowdown), candidateForks, candidateIterations, rng);
            Verdict v = Verdict.of(Ratio.interval(base, cand, Verdict.CONFIDENCE), Direction.LOWER_IS_BETTER, minEffect);
            if (v == Verdict.WORSE || (slowdown == 0 && v == Verdict.BETTER)) {
                flagged++;
            }
        }
        return (double) flagged / trials;
    }

    /**
     * The smallest slowdown (in steps of 0.5 %, up to 100 %) flagged with at least {@code power}; NaN when even 100 %
     * is not.
     */
    public static double smallestDetected(VarianceComponents vc, int forks, int iterations, double minEffect,
                                          double power, int trials, long seed) {
        for (int step = 1; step <= 200; step++) {
            double s = step * 0.005;
            if (rate(vc, forks, iterations, s, minEffect, trials, seed) >= power) {
                return s;
            }
        }
        return Double.NaN;
    }

    /** k forks of n iteration means around {@code mean}, with the components' spreads (absolute, not relative). */
    public static double[][] simulate(VarianceComponents vc, double mean, int forks, int iterations,
                                      SplittableRandom rng) {
        double scale = mean / vc.mean();
        double[][] out = new double[forks][iterations];
        for (int f = 0; f < forks; f++) {
            double forkMean = mean + scale * Math.sqrt(vc.betweenFork()) * rng.nextGaussian();
            for (int i = 0; i < iterations; i++) {
                out[f][i] = forkMean + scale * Math.sqrt(vc.withinFork()) * rng.nextGaussian();
            }
        }
        return out;
    }

    /**
     * The smallest change (a fraction, e.g. 0.11 for 11 %) that a comparison as precise as {@code ratio} finds with
     * 95 % power: a true change of that size puts the whole interval beyond 1 in 95 % of such comparisons. From the
     * interval's half-width on the log scale {@code h = q_c * se}, the change is {@code exp(se * (q_c + q_0.95)) - 1}
     * with t quantiles at the forks' degrees of freedom. NaN for an unknown interval.
     */
    public static double visibleChange(Interval ratio) {
        if (!ratio.known() || ratio.lower() <= 0) {
            return Double.NaN;
        }
        int df = Math.max(1, ratio.forks() - 1);
        double h = (Math.log(ratio.upper()) - Math.log(ratio.lower())) / 2;
        // a one-sided 95 % quantile is the two-sided 90 % one
        return Math.exp(h * (1 + ForkMeans.tQuantile(df, 0.90) / ForkMeans.tQuantile(df, ratio.confidence()))) - 1;
    }

    /** What {@link #visibleAt} finds: the change seen with 95 % power, and the spread of one unit's log ratio. */
    public record Visible(double change, double sd) {
    }

    /**
     * The change a comparison of {@code unitsThen} units (pairs, or forks a side) finds with 95 % power at the
     * interval's confidence, from an interval over {@code unitsNow} units: the spread of one unit's log ratio is
     * {@code sd = h / t(dfNow) * sqrt(unitsNow)} ({@code h} the log half-width), and the change
     * {@code exp(sd / sqrt(unitsThen) * (t(dfThen) + t_0.95(dfThen))) - 1}, t quantiles two-sided at the confidence
     * and one-sided at 95 %. Paired: df is units - 1; Welch's two sides: 2 units - 2. NaN for an unknown interval.
     */
    public static Visible visibleAt(Interval ratio, int dfNow, int unitsNow, int dfThen, int unitsThen) {
        if (!ratio.known() || ratio.lower() <= 0 || dfNow < 1 || dfThen < 1 || unitsNow < 1 || unitsThen < 1) {
            return new Visible(Double.NaN, Double.NaN);
        }
        double h = (Math.log(ratio.upper()) - Math.log(ratio.lower())) / 2;
        double sd = h / ForkMeans.tQuantile(dfNow, ratio.confidence()) * Math.sqrt(unitsNow);
        double q = ForkMeans.tQuantile(dfThen, ratio.confidence()) + ForkMeans.tQuantile(dfThen, 0.90);
        return new Visible(Math.exp(sd / Math.sqrt(unitsThen) * q) - 1, sd);
    }
}

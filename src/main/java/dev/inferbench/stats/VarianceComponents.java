package dev.inferbench.stats;

/**
 * How much of a cell's noise is between forks and how much between iterations of one fork: the one-way random
 * effects ANOVA estimators (Kalibera &amp; Jones' two-level model), for equal or unequal iterations per fork.
 *
 * @param mean       the grand mean of the iteration means
 * @param betweenFork sigma_fork^2: variance of the forks' true means around the cell's mean (0 when the estimator
 *                   comes out negative, as it may when forks do not differ)
 * @param withinFork sigma_iter^2: variance of iteration means around their fork's mean
 * @param forks      forks seen
 * @param iterations iterations per fork (the ANOVA's effective count when they differ)
 */
public record VarianceComponents(double mean, double betweenFork, double withinFork, int forks, double iterations) {

    /** @param forks per fork, its iterations' means; at least two forks and some with two iterations */
    public static VarianceComponents of(double[][] forks) {
        int k = forks.length;
        long total = 0;
        long sumSquares = 0;
        double grand = 0;
        for (double[] f : forks) {
            total += f.length;
            sumSquares += (long) f.length * f.length;
            for (double x : f) {
                grand += x;
            }
        }
        grand /= total;
        double ssWithin = 0;
        double ssBetween = 0;
        for (double[] f : forks) {
            double m = ForkMeans.mean(f);
            ssBetween += f.length * (m - grand) * (m - grand);
            for (double x : f) {
                ssWithin += (x - m) * (x - m);
            }
        }
        double msWithin = ssWithin / (total - k);
        double msBetween = ssBetween / (k - 1);
        double n0 = (total - (double) sumSquares / total) / (k - 1);
        return new VarianceComponents(grand, Math.max(0, (msBetween - msWithin) / n0), msWithin, k, n0);
    }

    /** The variance of a cell's mean measured with k forks of n iterations each. */
    public double varianceOfMean(int k, int n) {
        return betweenFork / k + withinFork / ((double) k * n);
    }

    /** Share of one iteration's variance that is between forks (the intraclass correlation). */
    public double forkShare() {
        double sum = betweenFork + withinFork;
        return sum == 0 ? 0 : betweenFork / sum;
    }
}

package dev.inferbench.stats;

/**
 * Forks versus iterations per fork for a time budget (Kalibera &amp; Jones, section on optimal repetition counts).
 * A run of k forks with n iterations costs {@code k (forkCost + n iterationCost)} and measures the mean with
 * variance {@code sigma_fork^2 / k + sigma_iter^2 / (k n)}; for a given cost that variance is smallest at
 * {@code n* = sqrt(forkCost sigma_iter^2 / (iterationCost sigma_fork^2))}: forks are worth their start-up cost as
 * long as they differ from each other more than the iterations of one fork do.
 *
 * @param forks          forks per cell
 * @param iterations     measured iterations per fork
 * @param seconds        the cell's time: forks x (fork cost + iterations x iteration cost)
 * @param relativeError  expected half-width of the 95 % interval of the mean over the mean, with those counts
 */
public record ForksAndIterations(int forks, int iterations, double seconds, double relativeError) {
    /** Fewer forks than this give a t interval too wide to use (t(0.975, 2) = 4.3). */
    public static final int MIN_FORKS = 3;

    /**
     * @param forkCost      seconds a fork costs besides its measured iterations (JVM start, model load, warmup)
     * @param iterationCost seconds of one measured iteration
     * @param budget        seconds one cell may take
     */
    public static ForksAndIterations optimal(VarianceComponents vc, double forkCost, double iterationCost, double budget,
                                int maxIterations) {
        double ideal = vc.betweenFork() <= 0 ? maxIterations
                : Math.sqrt(forkCost * vc.withinFork() / (iterationCost * vc.betweenFork()));
        ForksAndIterations best = null;
        // the continuous optimum rounded is not always best once k is an integer: try every n near it
        for (int n = 1; n <= maxIterations; n++) {
            int k = (int) Math.floor(budget / (forkCost + n * iterationCost));
            if (k < MIN_FORKS) {
                continue;
            }
            ForksAndIterations s = of(vc, k, n, forkCost, iterationCost);
            if (best == null || s.relativeError < best.relativeError
                    || (s.relativeError == best.relativeError && Math.abs(n - ideal) < Math.abs(best.iterations - ideal))) {
                best = s;
            }
        }
        return best != null ? best : of(vc, MIN_FORKS, 1, forkCost, iterationCost);
    }

    /** What k forks of n iterations would cost and reach. */
    public static ForksAndIterations of(VarianceComponents vc, int k, int n, double forkCost, double iterationCost) {
        double half = ForkMeans.tQuantile(k - 1, ForkMeans.DEFAULT_CONFIDENCE) * Math.sqrt(vc.varianceOfMean(k, n));
        return new ForksAndIterations(k, n, k * (forkCost + n * iterationCost), half / Math.abs(vc.mean()));
    }
}

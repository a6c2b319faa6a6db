package dev.inferbench.stats;

import org.apache.commons.math3.distribution.BetaDistribution;

/**
 * A rate measured by counting: {@code hits} of {@code trials} (comparisons that failed the gate, of those that ended
 * in a verdict), with its exact (Clopper-Pearson) interval. Exact means the interval covers the true rate at least
 * {@code confidence} of the time at every rate and every count, which a normal approximation does not at the small
 * counts a power ledger holds (0 of 8 would read 0-0 %). Its bounds are the beta quantiles of the binomial tails:
 * the lower one the rate at which {@code hits} or more would happen with probability (1 - confidence) / 2, the
 * upper one the rate at which {@code hits} or fewer would.
 */
public record BinomialRate(int hits, int trials, double lower, double upper, double confidence) {
    /** Far below the 0.1 % the ledger prints, so a bound never rounds the other way for the solver's sake. */
    private static final double ACCURACY = 1e-14;

    public static BinomialRate exact(int hits, int trials, double confidence) {
        if (trials <= 0 || hits < 0 || hits > trials || !(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("need 0 <= hits <= trials, trials >= 1 and 0 < confidence < 1, got "
                    + hits + " of " + trials + " at " + confidence);
        }
        double tail = (1 - confidence) / 2;
        double lower = hits == 0 ? 0
                : new BetaDistribution(null, hits, trials - hits + 1, ACCURACY).inverseCumulativeProbability(tail);
        double upper = hits == trials ? 1
                : new BetaDistribution(null, hits + 1, trials - hits, ACCURACY).inverseCumulativeProbability(1 - tail);
        return new BinomialRate(hits, trials, lower, upper, confidence);
    }

    /** The measured rate, hits over trials. */
    public double rate() {
        return (double) hits / trials;
    }
}

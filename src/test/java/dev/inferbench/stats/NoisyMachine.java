package dev.inferbench.stats;

import java.util.SplittableRandom;

/**
 * A shared VM as a generator of fork means for a paired A/B (fork i of A and fork i of B run next to each other), with
 * the kinds of noise seen on this project's machines, all multiplicative (on the log scale):
 * <ul>
 *   <li>{@code own}: each fork's own spread (JIT, layout, placement): independent between the two forks of a pair;</li>
 *   <li>{@code drift}: the machine's speed, shared by the two forks of a pair and wandering between pairs (AR(1)
 *       with {@code persistence} per pair), what interleaving is for;</li>
 *   <li>{@code burstShare}: the share of pairs a burst of other tenants' load (x{@code burstFactor}) falls on; each
 *       fork of such a pair is hit with probability 3/4 (a burst can end between the two);</li>
 *   <li>{@code outlierShare}: the share of forks that run x1.5 on their own (a bad JIT decision, a noisy core);</li>
 *   <li>{@code heavyTails}: the own spread drawn from Student's t with 3 degrees of freedom instead of a normal.</li>
 * </ul>
 * Seeded: the same machine and seed give the same forks.
 */
record NoisyMachine(String name, double own, double drift, double persistence, double burstShare,
                    double burstFactor, double outlierShare, boolean heavyTails) {

    static final NoisyMachine GAUSSIAN = new NoisyMachine("gaussian forks", 0.06, 0, 0, 0, 1, 0, false);
    static final NoisyMachine DRIFT = new NoisyMachine("slow drift", 0.05, 0.10, 0.9, 0, 1, 0, false);
    static final NoisyMachine BURSTS = new NoisyMachine("drift + bursts", 0.05, 0.10, 0.9, 0.10, 1.4, 0, false);
    static final NoisyMachine TAILS = new NoisyMachine("outliers + heavy tails", 0.05, 0.10, 0.9, 0, 1, 0.03, true);
    static final NoisyMachine[] ALL = {GAUSSIAN, DRIFT, BURSTS, TAILS};

    /** Gaussian forks whose pair log ratios spread {@code pairSd}: the and the docs' "pair sd". */
    static NoisyMachine gaussianPairs(double pairSd) {
        return new NoisyMachine("gaussian, pair sd " + pairSd, pairSd / Math.sqrt(2), 0, 0, 0, 1, 0, false);
    }

    /** This machine's drift, bursts and tails with each fork's own spread set so that the pairs spread about {@code pairSd}. */
    NoisyMachine withPairSd(double pairSd) {
        return new NoisyMachine(name + ", pair sd " + pairSd, pairSd / Math.sqrt(2), drift, persistence, burstShare,
                burstFactor, outlierShare, heavyTails);
    }

    /** {@code [0]}: the baseline's fork means, {@code [1]}: the candidate's ({@code 1 + slowdown} times slower), as forks of one iteration. */
    double[][][] pairs(int n, double slowdown, SplittableRandom rng) {
        return pairs(n, slowdown, rng, new boolean[n]);
    }

    /**
     * As above, and per pair in {@code hit} whether a burst fell on one of its forks: what a perfect disturbance
     * detector (the canary) would flag.
     */
    double[][][] pairs(int n, double slowdown, SplittableRandom rng, boolean[] hit) {
        double[][] a = new double[n][1];
        double[][] b = new double[n][1];
        double level = drift * rng.nextGaussian();
        double innovation = drift * Math.sqrt(1 - persistence * persistence);
        for (int i = 0; i < n; i++) {
            level = persistence * level + innovation * rng.nextGaussian();
            boolean burst = rng.nextDouble() < burstShare;
            boolean[] struck = new boolean[1];
            a[i][0] = 100 * Math.exp(level + forkNoise(burst, rng, struck));
            b[i][0] = 100 * (1 + slowdown) * Math.exp(level + forkNoise(burst, rng, struck));
            hit[i] = struck[0];
        }
        return new double[][][]{a, b};
    }

    private double forkNoise(boolean burst, SplittableRandom rng, boolean[] struck) {
        double e = own * (heavyTails ? studentT3(rng) : rng.nextGaussian());
        if (burst && rng.nextDouble() < 0.75) {
            e += Math.log(burstFactor);
            struck[0] = true;
        }
        if (rng.nextDouble() < outlierShare) {
            e += Math.log(1.5);
        }
        return e;
    }

    /** Student's t with 3 degrees of freedom, scaled to unit variance (its variance is 3). */
    private static double studentT3(SplittableRandom rng) {
        double chi2 = 0;
        for (int k = 0; k < 3; k++) {
            double z = rng.nextGaussian();
            chi2 += z * z;
        }
        return rng.nextGaussian() / Math.sqrt(chi2 / 3) / Math.sqrt(3);
    }
}

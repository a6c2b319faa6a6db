package dev.inferbench.serve;

import dev.inferbench.stats.PercentileBound;
import dev.inferbench.stats.Percentiles;

import java.util.Arrays;

/**
 * The M/D/1 queue: Poisson arrivals at rate λ, one server, a fixed service time D. What a stub service of known
 * service time gives under the open loop's Poisson arrivals, so that a rate search can be held against it: its
 * capacity is 1 / D, and the highest rate at which a latency percentile stays under a bound follows from the waiting
 * time's distribution (Erlang's formula for M/D/1):
 * <pre>P(W ≤ t) = (1 − ρ) Σ_{k=0}^{⌊t/D⌋} (λ(kD − t))^k / k! · e^{−λ(kD − t)},  ρ = λD</pre>
 * and the latency is the wait plus D. Exact in double precision while t / D stays below about 30.
 */
public final class QueueModel {
    private static final int MAX_TERMS = 30;

    private QueueModel() {
    }

    /** P(wait ≤ t) at arrival rate {@code lambda} (per s) and service time {@code d} (s); 0 when ρ ≥ 1. */
    public static double waitCdf(double t, double lambda, double d) {
        double rho = lambda * d;
        if (rho >= 1) {
            return 0;
        }
        if (t < 0) {
            return 0;
        }
        int terms = (int) Math.floor(t / d);
        if (terms > MAX_TERMS) {
            throw new IllegalArgumentException("t / D = " + t / d + " above " + MAX_TERMS + ": the sum loses precision");
        }
        double sum = 0;
        double factorial = 1;
        for (int k = 0; k <= terms; k++) {
            double x = lambda * (k * d - t);
            factorial *= k == 0 ? 1 : k;
            sum += Math.pow(x, k) / factorial * Math.exp(-x);
        }
        return (1 - rho) * sum;
    }

    /**
     * The highest arrival rate (per s) at which the {@code percentile}-th percentile of the latency (wait + D) is at
     * most {@code boundSeconds}; 0 when not even an idle server meets it (D above the bound).
     */
    public static double kneeRate(double percentile, double boundSeconds, double d) {
        double p = percentile / 100;
        if (boundSeconds < d) {
            return 0;
        }
        double lo = 0;
        double hi = 1 / d;
        for (int i = 0; i < 100; i++) {
            double mid = (lo + hi) / 2;
            if (waitCdf(boundSeconds - d, mid, d) >= p) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * The highest arrival rate at which a rate search can show the percentile met: a step at rate λ measures
     * {@code λ × stepSeconds} requests (at least {@code minRequests}), and is met only when the count over the bound
     * is shown under the percentile's share at {@code confidence} ({@link PercentileBound}); with the model's expected
     * count over the bound, that is a rate somewhat below {@link #kneeRate}, where the share over equals the allowed one
     * exactly (a step there passes and fails about equally often).
     */
    public static double shownKneeRate(double percentile, double boundSeconds, double d, double stepSeconds,
                                       int minRequests, double confidence) {
        double lo = 0;
        double hi = kneeRate(percentile, boundSeconds, d);
        for (int i = 0; i < 60; i++) {
            double mid = (lo + hi) / 2;
            long n = Math.max(minRequests, Math.round(mid * stepSeconds));
            double over = n * (1 - waitCdf(boundSeconds - d, mid, d));
            if (over <= PercentileBound.mostOverForMet(n, percentile, confidence)) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The latency (wait + D, s) within which {@code percentile} % of requests are served at rate {@code lambda}. */
    public static double latencyPercentile(double percentile, double lambda, double d) {
        if (lambda * d >= 1) {
            return Double.POSITIVE_INFINITY;
        }
        double lo = 0;
        double hi = d;
        while (waitCdf(hi, lambda, d) < percentile / 100) {
            hi *= 2;
        }
        for (int i = 0; i < 100; i++) {
            double mid = (lo + hi) / 2;
            if (waitCdf(mid, lambda, d) >= percentile / 100) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi + d;
    }

    /** The mean wait (s) of M/D/1 at rate {@code lambda}: ρD / (2(1 − ρ)) (Pollaczek–Khinchine). */
    public static double meanWait(double lambda, double d) {
        double rho = lambda * d;
        return rho >= 1 ? Double.POSITIVE_INFINITY : rho * d / (2 * (1 - rho));
    }

    /**
     * What one server of exactly {@code serviceNs} a request, with no cost of its own, makes of these very arrivals:
     * each request starts when it arrives or when the one before it ends (Lindley's recursion), and the first
     * {@code warmup} are left out as the open loop leaves them. The formulas above are this queue's limit over endless
     * arrivals; one step's thousand or so Poisson arrivals are one draw, whose p90 lies several percent from the
     * limit's (from -3.6 % to +12.5 % over seeds 0 to 5 at 100 req/s and 4 ms), so a planted truth for a seeded step
     * is this, not the limit.
     */
    public static Served oneServer(long[] arrivalsNs, int warmup, long serviceNs) {
        int m = arrivalsNs.length - warmup;
        long[] latencies = new long[m];
        double waits = 0;
        long free = Long.MIN_VALUE;
        for (int i = 0; i < arrivalsNs.length; i++) {
            long start = Math.max(arrivalsNs[i], free);
            free = start + serviceNs;
            if (i >= warmup) {
                latencies[i - warmup] = free - arrivalsNs[i];
                waits += start - arrivalsNs[i];
            }
        }
        Arrays.sort(latencies);
        return new Served(latencies, m == 0 ? Double.NaN : waits / m / 1e6);
    }

    /** The measured requests of {@link #oneServer}: their latencies (ns, sorted) and mean wait (ms). */
    public record Served(long[] sortedLatenciesNs, double meanWaitMs) {
        /** Nearest-rank percentile of the latencies, ms, as a step's figure reads it. */
        public double percentileMs(double p) {
            return Percentiles.atRank(sortedLatenciesNs, p) / 1e6;
        }
    }
}

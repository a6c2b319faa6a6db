package dev.inferbench.serve;

import dev.inferbench.BenchException;
import dev.inferbench.EnumLookup;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * When an open-loop step's requests arrive, decided before the step starts and independent of when calls finish:
 * {@code poisson}, exponential gaps of mean 1/rate (users acting independently: bursts and lulls, as MLPerf's server
 * scenario draws them), seeded; {@code constant}, one request every 1/rate exactly.
 */
public enum Arrivals {
    POISSON, CONSTANT;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Arrivals parse(String id) throws BenchException {
        return EnumLookup.parse(values(), Arrivals::id, "arrivals", id);
    }

    /** The intended start of each of {@code requests} requests, ns after the step's start; the first at 0. */
    public long[] schedule(double perSecond, int requests, long seed) {
        long[] at = new long[requests];
        double gapNs = 1e9 / perSecond;
        SplittableRandom random = new SplittableRandom(seed);
        double t = 0;
        for (int i = 0; i < requests; i++) {
            at[i] = Math.round(t);
            t += this == CONSTANT ? gapNs : -Math.log(1 - random.nextDouble()) * gapNs;
        }
        return at;
    }
}

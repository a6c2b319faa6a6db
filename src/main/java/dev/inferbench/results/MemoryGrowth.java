package dev.inferbench.results;

import dev.inferbench.metrics.MemoryProfiler;

/**
 * Whether a cell's resident set grew with calls, from its forks' growth figures ({@link MemoryProfiler#RSS_GROWTH},
 * one per fork, from the readings within the measured iterations; the fork is the unit of every interval here):
 * <ul>
 *   <li>{@link Kind#GROWS}: over the later half of each fork's measured calls the set grew, in every fork's sense:
 *       the 95 % interval of the growth rate is above 0 and the mean growth over that half is at least
 *       {@value #FLOOR_MIB} MiB (less is the allocator's and the heap's page-by-page noise). A leak, or a warm-up
 *       longer than the run;</li>
 *   <li>{@link Kind#SETTLES}: it grew over the earlier half (interval above 0, at least the floor) and not over the
 *       later: warm-up inside the measured calls, which then stopped;</li>
 *   <li>{@link Kind#FLAT}: neither;</li>
 *   <li>{@link Kind#NOT_JUDGED}: one fork (no interval), or no growth figure (no calls counted, no /proc).</li>
 * </ul>
 *
 * @param rate      the later half's growth, MiB per 10,000 calls, with its interval
 * @param grown     MiB grown over the later half, with its interval
 * @param grewEarly MiB grown over the earlier half, with its interval
 */
public record MemoryGrowth(Kind kind, double rate, double rateHalfWidth, double grown, double grewEarly,
                           double grewEarlyHalfWidth) {
    public enum Kind { GROWS, SETTLES, FLAT, NOT_JUDGED }

    /** Below this growth over half the measured calls (MiB) a fork's memory is taken as flat. */
    public static final double FLOOR_MIB = 1;

    public static MemoryGrowth of(CellSummary c) {
        double rate = c.extras().getOrDefault(MemoryProfiler.RSS_GROWTH, Double.NaN);
        double hw = c.extras().getOrDefault(CellSummary.halfWidth(MemoryProfiler.RSS_GROWTH), Double.NaN);
        double grown = c.extras().getOrDefault(MemoryProfiler.RSS_GROWN, Double.NaN);
        double early = c.extras().getOrDefault(MemoryProfiler.RSS_GROWN_EARLY, Double.NaN);
        double earlyHw = c.extras().getOrDefault(CellSummary.halfWidth(MemoryProfiler.RSS_GROWN_EARLY), Double.NaN);
        Kind kind;
        if (Double.isNaN(rate) || Double.isNaN(hw) || Double.isNaN(early) || Double.isNaN(earlyHw)) {
            kind = Kind.NOT_JUDGED;
        } else if (rate - hw > 0 && grown >= FLOOR_MIB) {
            kind = Kind.GROWS;
        } else if (early - earlyHw > 0 && early >= FLOOR_MIB) {
            kind = Kind.SETTLES;
        } else {
            kind = Kind.FLAT;
        }
        return new MemoryGrowth(kind, rate, hw, grown, early, earlyHw);
    }

    /** Whether the cell has growth figures at all (a run with the memory profiler and counted calls). */
    public static boolean measured(CellSummary c) {
        return c.extras().containsKey(MemoryProfiler.RSS_GROWTH);
    }
}

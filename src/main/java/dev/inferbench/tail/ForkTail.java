package dev.inferbench.tail;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One fork's tail table, from its measured calls: {@code callsMade} calls of which the recorder kept the slow ones,
 * each attributed. The p99 is the call at rank ⌈0.99 n⌉; the calls above it are the tail; each cause's share is of
 * the tail's calls whose main cause it is; "without" a cause, the calls given it are left out of the n calls and the
 * p99 taken again. Under 100 calls a p99 is the maximum, so the table is n/a (NaN).
 */
final class ForkTail {
    /** A planted cause on a calibration's stub: its key, when it began (inside the call) and on which thread. */
    record Planted(String cause, long at, long thread) {
    }

    static final long LEAST_CALLS = 100;

    private final List<Attribution.Attributed> slowest;
    private final long callsMade;

    /** @param calls the recorded calls, any order */
    ForkTail(List<Attribution.Attributed> calls, long callsMade) {
        List<Attribution.Attributed> sorted = new ArrayList<>(calls);
        sorted.sort(Comparator.comparingLong((Attribution.Attributed a) -> a.call().nanos()).reversed());
        // a compilation beside a call that ran at the fork's usual speed explains nothing: below the fork's p90 it is
        // listed, not given
        long p90Rank = (long) Math.ceil(0.9 * callsMade);
        for (int i = (int) Math.max(0, callsMade - p90Rank); i < sorted.size(); i++) {
            Attribution.Attributed a = sorted.get(i);
            if (a.given().contains(Cause.COMPILE)) {
                java.util.Set<Cause> given = new java.util.LinkedHashSet<>(a.given());
                given.remove(Cause.COMPILE);
                sorted.set(i, new Attribution.Attributed(a.call(), a.overlaps(), a.what(), given,
                        a.main() == Cause.COMPILE ? null : a.main()));
            }
        }
        this.slowest = sorted;
        this.callsMade = callsMade;
    }

    /** The recorded calls, slowest first. */
    List<Attribution.Attributed> slowest() {
        return slowest;
    }

    /** The calls above the p99 (0 when n/a). */
    int tailCalls() {
        return callsMade < LEAST_CALLS ? 0 : (int) (callsMade - rank(callsMade));
    }

    /** The rank of the p99 among n calls, from 1 at the fastest. */
    static long rank(long n) {
        return (long) Math.ceil(0.99 * n);
    }

    /** The p99, ms: NaN under 100 calls, or where the recorder did not keep the call at its rank. */
    double p99Ms() {
        return p99Ms(slowest, callsMade);
    }

    private static double p99Ms(List<Attribution.Attributed> slowestFirst, long n) {
        if (n < LEAST_CALLS) {
            return Double.NaN;
        }
        long fromTop = n - rank(n);
        return fromTop < slowestFirst.size() ? slowestFirst.get((int) fromTop).call().nanos() / 1e6 : Double.NaN;
    }

    /** The p99 with the calls given {@code cause} left out, ms. */
    double withoutMs(Cause cause) {
        List<Attribution.Attributed> kept = new ArrayList<>();
        for (Attribution.Attributed a : slowest) {
            if (!a.given().contains(cause)) {
                kept.add(a);
            }
        }
        return p99Ms(kept, callsMade - (slowest.size() - kept.size()));
    }

    /** Each column's share of the first {@code count} calls (slowest first), %: the main causes, then unexplained. */
    Map<String, Double> shares(int count) {
        Map<String, Double> out = new LinkedHashMap<>();
        int of = Math.min(count, slowest.size());
        for (String column : Cause.columns()) {
            out.put(column, of == 0 ? Double.NaN : 0.0);
        }
        for (int i = 0; i < of; i++) {
            Cause main = slowest.get(i).main();
            String column = main == null ? Cause.UNEXPLAINED : main.key();
            out.merge(column, 100.0 / of, Double::sum);
        }
        return out;
    }

    /** The fork's figures by metric name ({@link TailMetrics}), NaN where n/a. */
    Map<String, Double> figures(List<Planted> planted) {
        Map<String, Double> out = new LinkedHashMap<>();
        int tail = tailCalls();
        out.put(TailMetrics.P99, p99Ms());
        out.put(TailMetrics.CALLS, (double) tail);
        out.put(TailMetrics.MISSED, (double) Math.max(0, tail + 1 - slowest.size()));
        shares(tail).forEach((column, v) -> out.put(TailMetrics.share(column), v));
        shares(TailMetrics.TOP).forEach((column, v) -> out.put(TailMetrics.top(column), v));
        for (Cause c : Cause.values()) {
            out.put(TailMetrics.without(c), withoutMs(c));
        }
        if (!planted.isEmpty()) {
            out.putAll(plantedFigures(planted));
        }
        return out;
    }

    /**
     * Of the planted calls, the share given their planted cause (a planted call the recorder did not keep counts as
     * missed); of the fork's calls with nothing planted, the share that the table gives a main cause.
     */
    Map<String, Double> plantedFigures(List<Planted> planted) {
        List<Attribution.Attributed> byStart = new ArrayList<>(slowest);
        byStart.sort(Comparator.comparingLong(a -> a.call().start()));
        boolean[] hasPlant = new boolean[byStart.size()];
        int hit = 0;
        for (Planted p : planted) {
            int i = containing(byStart, p);
            if (i < 0) {
                continue;
            }
            hasPlant[i] = true;
            Cause cause = Cause.of(p.cause());
            if (cause != null && byStart.get(i).given().contains(cause)) {
                hit++;
            }
        }
        int withPlant = 0;
        int caused = 0;
        for (int i = 0; i < byStart.size(); i++) {
            withPlant += hasPlant[i] ? 1 : 0;
            caused += !hasPlant[i] && byStart.get(i).explained() ? 1 : 0;
        }
        // every call of the fork that had nothing planted, kept or not: one the recorder did not keep has no cause
        long clean = callsMade - Math.max(withPlant, planted.size());
        Map<String, Double> out = new LinkedHashMap<>();
        out.put(TailMetrics.PLANTED_HIT, 100.0 * hit / planted.size());
        out.put(TailMetrics.UNPLANTED_CAUSED, clean <= 0 ? Double.NaN : 100.0 * caused / clean);
        return out;
    }

    /** The index of the recorded call of the plant's thread that contains it, or -1. */
    private static int containing(List<Attribution.Attributed> byStart, Planted p) {
        int lo = 0;
        int hi = byStart.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (byStart.get(mid).call().start() <= p.at()) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        for (int i = lo - 1; i >= 0 && i >= lo - 8; i--) { // callers' calls interleave: look back a few
            SlowCall c = byStart.get(i).call();
            if (c.thread() == p.thread() && c.contains(p.at())) {
                return i;
            }
        }
        return -1;
    }
}

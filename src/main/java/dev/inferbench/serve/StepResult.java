package dev.inferbench.serve;

import java.util.Arrays;
import java.util.List;

/**
 * What one open-loop step saw, its warm-up requests left out. Latency is from each request's intended start (its
 * arrival in the schedule) to the end of its call, so time spent queued behind earlier requests counts, and a
 * scheduler that fell behind does not hide it (no coordinated omission). A request still unserved when the step gave
 * up waiting is dropped; its latency is counted as the wait it had so far, a lower bound, so a step that drops never
 * looks fast.
 *
 * @param offeredPerSecond   the rate the schedule asked for
 * @param scheduledPerSecond the rate the drawn schedule's measured part actually offered (a Poisson draw of 1,000
 *                           gaps is a few % off its mean): what the served rate must keep up with
 * @param latenciesNs        every measured request's latency, sorted, dropped ones included
 * @param waitsNs            every measured request's wait from its intended start to the start of the call that
 *                           served it (the queue's share of its latency), sorted; a dropped one's whole latency
 * @param delaysNs           how late the scheduler issued each measured arrival, sorted
 * @param dropped            measured requests not served before the step's drain limit
 * @param queueMean          requests waiting, on average, when a measured request arrived
 * @param queueMax           the most requests waiting when one arrived
 * @param servingNs          from the first measured arrival's intended start to the last measured call's end
 * @param calls              engine calls that served the completed measured requests (fewer with dynamic batching)
 * @param warmupServed       requests served before the measured ones, to bring the queue and callers to a steady
 *                           state; not in any figure but the CPU per request (their CPU was spent in the step too)
 */
public record StepResult(double offeredPerSecond, double scheduledPerSecond, long[] latenciesNs, long[] waitsNs,
                         long[] delaysNs, int dropped, double queueMean, int queueMax, long servingNs, long calls,
                         long warmupServed) {

    /**
     * A step with no queue, no warm-up and every arrival on time (calls after idle; tests): each completed request
     * served in a call of its own, and the served rate compared with the offered one.
     */
    public static StepResult of(double offeredPerSecond, long[] sortedLatenciesNs, int dropped, long servingNs) {
        int n = sortedLatenciesNs.length;
        return new StepResult(offeredPerSecond, offeredPerSecond, sortedLatenciesNs, new long[n], new long[n], dropped,
                0, 0, servingNs, n - dropped, 0);
    }

    /** Requests served per engine call, on average: above 1 only with dynamic batching. */
    public double requestsPerCall() {
        return calls == 0 ? Double.NaN : completed() / (double) calls;
    }

    public int requests() {
        return latenciesNs.length;
    }

    public int completed() {
        return latenciesNs.length - dropped;
    }

    /** Every request the step served, warm-up included: the calls its CPU time paid for. */
    public long servedInAll() {
        return completed() + warmupServed;
    }

    /** Requests served per second: completed requests over the time from the first measured arrival to the last end. */
    public double achievedPerSecond() {
        return servingNs <= 0 ? Double.NaN : completed() / (servingNs / 1e9);
    }

    /**
     * Requests served per second within {@code boundNs} of their intended start (goodput). A dropped request had
     * waited the drain limit (5 s or more) when it was given up, so it counts only under a bound longer than that,
     * which no SLO this is used with has.
     */
    public double goodputPerSecond(long boundNs) {
        return servingNs <= 0 ? Double.NaN : Math.max(0, requests() - over(latenciesNs, boundNs) - dropped)
                / (servingNs / 1e9);
    }

    /** Measured requests whose latency exceeded {@code boundNs}. */
    public int over(long boundNs) {
        return over(latenciesNs, boundNs);
    }

    /** Measured arrivals the scheduler issued more than {@code boundNs} after their time. */
    public int late(long boundNs) {
        return over(delaysNs, boundNs);
    }

    /** Nearest-rank percentile (0 < p <= 100) of the latencies, ms; NaN without requests. */
    public double percentileMs(double p) {
        if (latenciesNs.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.max(1, Math.ceil(p / 100 * latenciesNs.length));
        return latenciesNs[Math.min(rank, latenciesNs.length) - 1] / 1e6;
    }

    public double meanMs() {
        return Arrays.stream(latenciesNs).average().orElse(Double.NaN) / 1e6;
    }

    /** The mean wait in the queue, ms: the part of the mean latency spent before a caller took the request. */
    public double meanWaitMs() {
        return Arrays.stream(waitsNs).average().orElse(Double.NaN) / 1e6;
    }

    /** The mean time from a caller taking a request to its call's end, ms: the mean latency less the mean wait. */
    public double meanComputeMs() {
        return meanMs() - meanWaitMs();
    }

    /**
     * Several steps at one rate as one: their requests together, the times and counts summed, so that a verdict a
     * single step could not give (the search's repeats) stands on all of them.
     */
    public static StepResult pool(List<StepResult> steps) {
        if (steps.size() == 1) {
            return steps.get(0);
        }
        long requests = 0;
        long serving = 0;
        double queued = 0;
        int queueMax = 0;
        int dropped = 0;
        long calls = 0;
        long warmup = 0;
        for (StepResult s : steps) {
            requests += s.requests();
            serving += s.servingNs;
            queued += s.queueMean * s.requests();
            queueMax = Math.max(queueMax, s.queueMax);
            dropped += s.dropped;
            calls += s.calls;
            warmup += s.warmupServed;
        }
        // the scheduled rate of the whole: requests over the summed time each step's schedule took to offer them
        double scheduleSeconds = steps.stream().mapToDouble(s -> s.requests() / s.scheduledPerSecond).sum();
        return new StepResult(steps.get(0).offeredPerSecond, requests / scheduleSeconds,
                merged(steps, StepResult::latenciesNs), merged(steps, StepResult::waitsNs),
                merged(steps, StepResult::delaysNs), dropped, requests == 0 ? 0 : queued / requests, queueMax, serving,
                calls, warmup);
    }

    private static long[] merged(List<StepResult> steps, java.util.function.Function<StepResult, long[]> field) {
        long[] all = steps.stream().map(field).flatMapToLong(Arrays::stream).toArray();
        Arrays.sort(all);
        return all;
    }

    /** How many of the sorted values exceed {@code bound}. */
    private static int over(long[] sorted, long bound) {
        int i = Arrays.binarySearch(sorted, bound);
        if (i < 0) {
            return sorted.length - (-i - 1);
        }
        while (i + 1 < sorted.length && sorted[i + 1] == bound) {
            i++;
        }
        return sorted.length - i - 1;
    }
}

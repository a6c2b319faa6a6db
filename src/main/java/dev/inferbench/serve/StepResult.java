package dev.inferbench.serve;

import dev.inferbench.stats.Percentiles;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Stream;

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
 * @param tokens             for streamed responses (generation), each measured request's token times from its
 *                           intended start, in arrival order, null for a dropped one; empty when the requests were
 *                           single calls
 * @param servedInWindow     measured requests served by the end of the window their arrivals span (the last
 *                           arrival plus one mean gap): what the served-rate check holds against the schedule, so that
 *                           the requests still in flight when arrivals stop are not counted as a shortfall
 * @param users              closed-loop users: which user sent each measured request, in arrival order; empty when
 *                           each request is its own user (the open loop)
 */
public record StepResult(double offeredPerSecond, double scheduledPerSecond, long[] latenciesNs, long[] waitsNs,
                         long[] delaysNs, int dropped, double queueMean, int queueMax, long servingNs, long calls,
                         long warmupServed, List<TokenTimes> tokens, int servedInWindow, int[] users) {

    public StepResult {
        tokens = Collections.unmodifiableList(new ArrayList<>(tokens)); // nulls allowed: dropped
    }

    /** A step whose every request is its own user. */
    public StepResult(double offeredPerSecond, double scheduledPerSecond, long[] latenciesNs, long[] waitsNs,
                      long[] delaysNs, int dropped, double queueMean, int queueMax, long servingNs, long calls,
                      long warmupServed, List<TokenTimes> tokens, int servedInWindow) {
        this(offeredPerSecond, scheduledPerSecond, latenciesNs, waitsNs, delaysNs, dropped, queueMean, queueMax,
                servingNs, calls, warmupServed, tokens, servedInWindow, new int[0]);
    }

    /**
     * This step as closed-loop users ran it: {@code users[k]} sent measured request k. Its arrivals kept no rate of
     * their own (each waited for a response), so the scheduled rate is NaN and the served rate is held against none.
     */
    StepResult sentBy(int[] users) {
        return new StepResult(offeredPerSecond, Double.NaN, latenciesNs, waitsNs, delaysNs, dropped, queueMean,
                queueMax, servingNs, calls, warmupServed, tokens, servedInWindow, users);
    }

    /** Whether closed-loop users sent the requests, each its next when its last one ended. */
    public boolean closedLoop() {
        return users.length > 0;
    }

    /**
     * A step with no queue, no warm-up and every arrival on time (calls after idle; tests): each completed request
     * served in a call of its own, and the served rate compared with the offered one.
     */
    public static StepResult of(double offeredPerSecond, long[] sortedLatenciesNs, int dropped, long servingNs) {
        int n = sortedLatenciesNs.length;
        // served at an even pace over servingNs: those within the n / offered seconds the arrivals took
        double window = offeredPerSecond > 0 ? n / offeredPerSecond * 1e9 : Double.NaN;
        int inWindow = servingNs <= 0 || !(window > 0) ? n - dropped
                : (int) Math.min(n - dropped, Math.round((n - dropped) * window / servingNs));
        return new StepResult(offeredPerSecond, offeredPerSecond, sortedLatenciesNs, new long[n], new long[n], dropped,
                0, 0, servingNs, n - dropped, 0, List.of(), inWindow);
    }

    /** Whether the requests were streamed responses, with the times of their tokens. */
    public boolean streamed() {
        return !tokens.isEmpty();
    }

    /**
     * The step's values of one figure, ns, sorted: the latencies (dropped ones included, as lower bounds); each served
     * request's TTFT or TPOT (a one-token response has none); every gap between tokens of every served request (ITL).
     * Empty for a token figure of a step without token times.
     */
    public long[] sortedNs(Slo.Metric metric) {
        if (metric == Slo.Metric.LATENCY) {
            return latenciesNs;
        }
        Stream<TokenTimes> served = tokens.stream().filter(Objects::nonNull);
        long[] values = switch (metric) {
            case TTFT -> served.mapToLong(TokenTimes::ttftNs).toArray();
            case TPOT -> served.filter(t -> t.tokens() > 1).mapToLong(t -> Math.round(t.tpotNs())).toArray();
            default -> served.flatMapToLong(t -> Arrays.stream(t.gapsNs())).toArray();
        };
        Arrays.sort(values);
        return values;
    }

    /** Nearest-rank percentile (0 < p <= 100) of one figure, ms; NaN without values. */
    public double percentileMs(Slo.Metric metric, double p) {
        return Percentiles.atRank(sortedNs(metric), p) / 1e6;
    }

    /** Output tokens of the served requests per second of the step's window ({@link #perSecond}); NaN unstreamed. */
    public double outputTokensPerSecond() {
        long count = tokens.stream().filter(Objects::nonNull).mapToLong(TokenTimes::tokens).sum();
        return streamed() ? perSecond(count) : Double.NaN;
    }

    /**
     * Output tokens per second per user, the mean over users: each user's output tokens over the time it waited for
     * them, the sum of its served requests' latencies from sending to the last token. In a closed loop a user always
     * has a request out, so that is its time in the step; in the open loop each request is its own user. The wait for
     * a caller and the prefill are in it (it is not 1 / TPOT). NaN unstreamed.
     */
    public double outputTokensPerSecondPerUser() {
        if (!streamed()) {
            return Double.NaN;
        }
        Map<Integer, long[]> perUser = new HashMap<>(); // {tokens, ns}
        for (int k = 0; k < tokens.size(); k++) {
            TokenTimes t = tokens.get(k);
            if (t != null) {
                long[] sum = perUser.computeIfAbsent(users.length == 0 ? k : users[k], u -> new long[2]);
                sum[0] += t.tokens();
                sum[1] += t.endToEndNs();
            }
        }
        return perUser.values().stream().filter(s -> s[1] > 0).mapToDouble(s -> s[0] / (s[1] / 1e9)).average()
                .orElse(Double.NaN);
    }

    /**
     * {@code count} per second of the step's measured window. With a schedule the window is the time its measured
     * arrivals offered: m arrivals own m mean gaps (each the gap after it), from the first measured arrival to when the
     * arrival after the last would have come. Not from the first arrival to the last end: m arrivals at rate R span
     * only m - 1 gaps, so instant calls would read m / (m - 1) x R (16 requests at 10/s: 10.67/s), more served than
     * offered. The warm-up arrivals lie before the window and the drain after it. Closed-loop users keep no schedule:
     * their window is from the first measured request to the last end.
     */
    double perSecond(long count) {
        double windowNs = scheduled() ? requests() / scheduledPerSecond * 1e9 : servingNs;
        return !(windowNs > 0) ? Double.NaN : count / (windowNs / 1e9);
    }

    /** Whether the requests arrived on a schedule with a rate of its own (the open loop), not from closed-loop users. */
    private boolean scheduled() {
        return !closedLoop() && scheduledPerSecond > 0 && requests() > 0;
    }

    /**
     * {@code good} requests per second of the window, counting none served after it: goodput never reads above the
     * served rate.
     */
    double goodPerSecond(long good) {
        return perSecond(scheduled() ? Math.min(good, servedInWindow) : good);
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

    /**
     * Requests served per second (served/s): with a schedule, the measured requests served within the window
     * ({@link #servedInWindow}) over its length ({@link #perSecond}), so that it never reads above the rate the schedule
     * offered; in a closed loop, the completed requests over the time from the first measured request to the last end.
     */
    public double achievedPerSecond() {
        return perSecond(scheduled() ? servedInWindow : completed());
    }

    /**
     * Requests served per second within {@code boundNs} of their intended start (goodput). A dropped request had
     * waited the drain limit (5 s or more) when it was given up, so it counts only under a bound longer than that,
     * which no SLO this is used with has.
     */
    public double goodputPerSecond(long boundNs) {
        return goodPerSecond(Math.max(0, requests() - over(latenciesNs, boundNs) - dropped));
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
        return Percentiles.atRank(latenciesNs, p) / 1e6;
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
        int inWindow = 0;
        for (StepResult s : steps) {
            inWindow += s.servedInWindow;
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
        List<TokenTimes> tokens = new ArrayList<>();
        steps.forEach(s -> tokens.addAll(s.tokens));
        // each step's users are users of their own
        int[] users = new int[0];
        if (steps.stream().allMatch(StepResult::closedLoop)) {
            users = new int[steps.stream().mapToInt(s -> s.users.length).sum()];
            int at = 0;
            int offset = 0;
            for (StepResult s : steps) {
                for (int u : s.users) {
                    users[at++] = offset + u;
                }
                offset += Arrays.stream(s.users).max().orElse(-1) + 1;
            }
        }
        return new StepResult(steps.get(0).offeredPerSecond, requests / scheduleSeconds,
                merged(steps, StepResult::latenciesNs), merged(steps, StepResult::waitsNs),
                merged(steps, StepResult::delaysNs), dropped, requests == 0 ? 0 : queued / requests, queueMax, serving,
                calls, warmup, tokens, inWindow, users);
    }

    /**
     * Requests served per second within the window the measured arrivals span, against which the scheduled rate is
     * held ({@link Validity}); NaN without a schedule.
     */
    public double servedInWindowPerSecond() {
        return requests() == 0 ? Double.NaN : scheduledPerSecond * servedInWindow / requests();
    }

    private static long[] merged(List<StepResult> steps, Function<StepResult, long[]> field) {
        long[] all = steps.stream().map(field).flatMapToLong(Arrays::stream).toArray();
        Arrays.sort(all);
        return all;
    }

    /** How many of the sorted values exceed {@code bound}. */
    static int over(long[] sorted, long bound) {
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

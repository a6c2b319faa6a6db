package dev.inferbench.serve;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Closed-loop users and the admission limit, through the open loop's one step: a user never has two requests out,
 * a request's time counts from when its user sent it (so the one queued behind another user's shows that wait), a
 * user whose request ends early in a batch sends its next one then, and a budget that admits one request at a time
 * serializes a batch. The margins are whole call times, not timings.
 */
class ClosedLoopTest {
    private static final long MS = 1_000_000;

    /** A call of {@code steps} tokens, {@code stepMs} apart, for every request it serves; it records its calls' sizes. */
    private static OpenLoop.Serve tokens(int steps, long stepMs, List<Integer> sizes, List<int[]> served) {
        return (ids, done) -> {
            sizes.add(ids.length);
            served.add(ids.clone());
            long[][] times = new long[ids.length][steps];
            for (int t = 0; t < steps; t++) {
                spin(stepMs * MS);
                long now = System.nanoTime();
                for (long[] r : times) {
                    r[t] = now;
                }
            }
            return times;
        };
    }

    private static void spin(long ns) {
        long end = System.nanoTime() + ns;
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }

    @Test
    void oneUserSendsEachRequestWhenItsLastEndedAndNeverWaits() throws Exception {
        List<Integer> sizes = Collections.synchronizedList(new ArrayList<>());
        List<int[]> served = Collections.synchronizedList(new ArrayList<>());
        StepResult r = OpenLoop.closed(List.of(tokens(3, 2, sizes, served)), new OpenLoop.Batching(4, 0), 1, 30, 3,
                5_000_000_000L);
        assertThat(r.requests()).isEqualTo(27);
        assertThat(r.dropped()).isZero();
        assertThat(sizes).hasSize(30).containsOnly(1); // one request out at a time, however large the batch may be
        assertThat(r.users()).hasSize(27).containsOnly(0);
        assertThat(r.closedLoop()).isTrue();
        assertThat(r.offeredPerSecond()).isNaN();
        assertThat(Validity.of(r, null).fellBehind()).isFalse(); // no schedule to fall behind
        // each user's tokens over its requests' time: 3 tokens in about 6 ms, whatever the machine adds, under 500/s
        assertThat(r.outputTokensPerSecondPerUser()).isLessThanOrEqualTo(3 / 0.006).isGreaterThan(3 / 0.060);
    }

    @Test
    void twoUsersOnOneCallerAtBatchOneEachWaitForTheOther() throws Exception {
        List<Integer> sizes = Collections.synchronizedList(new ArrayList<>());
        List<int[]> served = Collections.synchronizedList(new ArrayList<>());
        StepResult r = OpenLoop.closed(List.of(tokens(2, 5, sizes, served)), OpenLoop.Batching.NONE, 2, 24, 4,
                5_000_000_000L);
        assertThat(r.users()).hasSize(20);
        assertThat(Arrays.stream(r.users()).filter(u -> u == 0).count()).isBetween(9L, 11L);
        // every measured request was sent while the other user's was being served: it waited one call, ~10 ms
        assertThat(r.waitsNs()[0]).isGreaterThan(5 * MS);
        assertThat(r.sortedNs(Slo.Metric.TTFT)[0]).isGreaterThan(10 * MS);
        // in the open loop's terms a user's tokens/s halves: 2 tokens over two calls' time
        assertThat(r.outputTokensPerSecondPerUser()).isLessThan(2 / 0.020 * 1.001);
    }

    @Test
    void aUserWhoseRequestEndsEarlyInABatchSendsItsNextThen() throws Exception {
        // two callers; request ids 0 and 1 (the users' first) are batched together; the call tells done as each ends,
        // so user 0's second request (its call: 1 step) is sent at user 0's end, before the batch's longer row is done
        List<Long> sentAt = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger calls = new AtomicInteger();
        OpenLoop.Serve uneven = (ids, done) -> {
            calls.incrementAndGet();
            long[][] times = new long[ids.length][];
            for (int s = 0; s < ids.length; s++) {
                times[s] = new long[ids[s] == 1 ? 10 : 1];
            }
            for (int t = 0; t < 10; t++) {
                spin(2 * MS);
                long now = System.nanoTime();
                boolean any = false;
                for (int s = 0; s < ids.length; s++) {
                    if (t < times[s].length) {
                        times[s][t] = now;
                        any = true;
                        if (t == times[s].length - 1) {
                            done.at(s, now);
                        }
                    }
                }
                if (!any) {
                    break;
                }
            }
            sentAt.add(System.nanoTime());
            return times;
        };
        StepResult r = OpenLoop.closed(List.of(uneven, uneven), new OpenLoop.Batching(2, 5 * MS), 2, 6, 2,
                5_000_000_000L);
        assertThat(r.dropped()).isZero();
        // user 1's one long request (10 steps, ~20 ms) runs while user 0 sends and is served several times
        assertThat(Arrays.stream(r.users()).filter(u -> u == 0).count()).isGreaterThanOrEqualTo(3);
    }

    @Test
    void aBudgetThatAdmitsOneRequestServesABatchOfTwoOneAtATime() throws Exception {
        List<Integer> free = Collections.synchronizedList(new ArrayList<>());
        StepResult unlimited = OpenLoop.closed(List.of(tokens(2, 2, free, new ArrayList<>())),
                new OpenLoop.Batching(2, 20 * MS), 2, 20, 2, 5_000_000_000L);
        assertThat(free).containsOnly(2); // both users' requests wait together for the next batch
        assertThat(unlimited.requestsPerCall()).isEqualTo(2);

        List<Integer> sizes = Collections.synchronizedList(new ArrayList<>());
        List<int[]> served = Collections.synchronizedList(new ArrayList<>());
        Admission oneAtATime = new Admission(150, ids -> 100L * ids.length);
        StepResult r = OpenLoop.closed(List.of(tokens(2, 2, sizes, served)), new OpenLoop.Batching(2, 20 * MS,
                oneAtATime), 2, 20, 2, 5_000_000_000L);
        assertThat(sizes).hasSize(20).containsOnly(1);
        // in the order they were sent: the request left out of a batch is the first of the next
        assertThat(served.stream().mapToInt(ids -> ids[0])).isSorted();
        // the one left out waited for the other's call: its wait is in its TTFT
        assertThat(r.sortedNs(Slo.Metric.TTFT)[r.requests() / 2]).isGreaterThan(4 * MS);
    }

    @Test
    void aBudgetIsSharedByTheCallers() throws Exception {
        // two callers, a budget of one request: never two calls at once
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        OpenLoop.Call call = () -> {
            most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            spin(MS);
            inFlight.decrementAndGet();
        };
        List<OpenLoop.BatchCall> callers = List.of(k -> call.run(), k -> call.run());
        OpenLoop.run(callers, new OpenLoop.Batching(1, 0, new Admission(1, ids -> ids.length)),
                Arrivals.CONSTANT.schedule(2000, 40, 1), 0, 2000, 5_000_000_000L);
        assertThat(most.get()).isEqualTo(1);
        OpenLoop.run(callers, new OpenLoop.Batching(1, 0, new Admission(2, ids -> ids.length)),
                Arrivals.CONSTANT.schedule(4000, 40, 1), 0, 4000, 5_000_000_000L);
        assertThat(most.get()).isEqualTo(2); // the check can see two at once when the budget allows them
    }

    @Test
    void aRequestNoBudgetCanHoldFailsTheStepInOneLine() {
        OpenLoop.Serve any = (ids, done) -> null;
        assertThatThrownBy(() -> OpenLoop.closed(List.of(any), new OpenLoop.Batching(1, 0,
                new Admission(10, ids -> 11)), 1, 4, 1, 5_000_000_000L))
                .hasMessageContaining("can never be admitted");
    }

    @Test
    void tokensPerUserAreEachUsersTokensOverItsRequestsTime() {
        // user 0: 4 tokens in 100 ms and 4 in 100 ms (40/s); user 1: 10 tokens in 500 ms (20/s): mean 30/s
        List<TokenTimes> tokens = List.of(new TokenTimes(new long[]{10 * MS, 40 * MS, 70 * MS, 100 * MS}),
                new TokenTimes(new long[]{100 * MS, 200 * MS, 300 * MS, 400 * MS, 500 * MS, 500 * MS, 500 * MS,
                        500 * MS, 500 * MS, 500 * MS}),
                new TokenTimes(new long[]{10 * MS, 40 * MS, 70 * MS, 100 * MS}));
        StepResult closed = new StepResult(Double.NaN, Double.NaN, new long[3], new long[3], new long[3], 0, 0, 0,
                MS, 3, 0, tokens, 3, new int[]{0, 1, 0});
        assertThat(closed.outputTokensPerSecondPerUser()).isCloseTo(30, org.assertj.core.data.Offset.offset(1e-9));
        // the open loop: each request its own user (40, 20 and 40 tokens/s)
        StepResult open = new StepResult(1, 1, new long[3], new long[3], new long[3], 0, 0, 0, MS, 3, 0, tokens, 3);
        assertThat(open.outputTokensPerSecondPerUser()).isCloseTo(100 / 3.0, org.assertj.core.data.Offset.offset(1e-9));
    }
}

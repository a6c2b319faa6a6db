package dev.inferbench.serve;

import dev.inferbench.plant.HeldArrivals;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * What the open loop must do whatever the machine's speed: serve every request once, count from the intended start
 * (so an overloaded step's latency grows with the queue, the coordinated-omission trap), drop what the drain limit
 * leaves, and fail on a failing call. The margins are orders of magnitude, not timings.
 */
class OpenLoopTest {

    @Test
    void everyRequestIsServedOnceAcrossTheCallers() throws Exception {
        AtomicInteger a = new AtomicInteger();
        AtomicInteger b = new AtomicInteger();
        StepResult r = OpenLoop.run(List.of(a::incrementAndGet, b::incrementAndGet),
                Arrivals.CONSTANT.schedule(2000, 200, 1), 2000, 5_000_000_000L);
        assertThat(a.get() + b.get()).isEqualTo(200);
        assertThat(r.requests()).isEqualTo(200);
        assertThat(r.dropped()).isZero();
        assertThat(r.completed()).isEqualTo(200);
        assertThat(r.latenciesNs()).isSorted();
        assertThat(r.latenciesNs()[0]).isPositive();
    }

    /**
     * A caller that finds the queue empty is awake for the next request and issues it itself when its time comes, so
     * that a request finding a caller idle does not wait for a parked thread to be woken: here the scheduler has begun
     * its step but issues nothing, and the caller still gets each request, in order, not before its time.
     */
    @Test
    void anIdleCallerIssuesTheNextRequestAtItsTimeWhenTheSchedulerDoesNot() {
        Schedule schedule = new Schedule(new long[]{0, 3_000_000});
        LinkedBlockingQueue<long[]> queue = new LinkedBlockingQueue<>();
        long[] intended = new long[2];
        Issuer issuer = new Issuer(queue, System.nanoTime() + 5_000_000, 0, intended);
        schedule.begin(issuer);
        Gatherer caller = new Gatherer(queue, OpenLoop.Batching.NONE, schedule);
        AtomicBoolean giveUp = new AtomicBoolean();
        int[] first = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> caller.next(giveUp));
        long firstAt = System.nanoTime();
        int[] second = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> caller.next(giveUp));
        long secondAt = System.nanoTime();
        assertThat(first).containsExactly(0);
        assertThat(second).containsExactly(1);
        assertThat(firstAt).isGreaterThanOrEqualTo(issuer.start());
        assertThat(secondAt).isGreaterThanOrEqualTo(issuer.start() + 3_000_000);
        assertThat(issuer.issued()).isEqualTo(2);
        assertThat(schedule.nextDue()).isEqualTo(OpenLoop.Source.NONE);
    }

    @Test
    void anOverloadedStepCountsQueueingFromTheIntendedStart() throws Exception {
        // 40 requests arrive within 4 ms; one caller serves one per 5 ms: the last waits for the 39 before it
        OpenLoop.Call fiveMs = () -> Thread.sleep(5);
        StepResult r = OpenLoop.run(List.of(fiveMs), Arrivals.CONSTANT.schedule(10_000, 40, 1), 10_000, 5_000_000_000L);
        assertThat(r.dropped()).isZero();
        assertThat(r.percentileMs(100)).isGreaterThan(39 * 5 - 4); // a closed loop would say ~5 ms
        assertThat(r.percentileMs(50)).isGreaterThan(20 * 5 - 4);
        assertThat(r.queueMax()).isGreaterThan(20);
        assertThat(r.achievedPerSecond()).isLessThan(10_000 / 10.0);
        // most of that latency is the wait in the queue, not the 5 ms call
        assertThat(r.meanWaitMs()).isGreaterThan(10 * r.meanComputeMs());
        assertThat(r.meanComputeMs()).isGreaterThanOrEqualTo(4.5);
        assertThat(Validity.of(r, null).fellBehind()).isTrue();
    }

    @Test
    void aSchedulerThatCannotKeepItsScheduleMakesTheStepInvalid() throws Exception {
        // 200,000 arrivals due within 1 ms (5 ns apart): issuing each takes the scheduler tens of ns, so most are
        // issued well over 1 ms late, whatever the machine; the step says so instead of reporting the latencies
        StepResult r = OpenLoop.run(List.of(() -> { }), Arrivals.CONSTANT.schedule(2e8, 200_000, 1), 2e8,
                5_000_000_000L);
        Validity v = Validity.of(r, null);
        assertThat(v.lateShare()).isGreaterThan(0.5);
        assertThat(v.tooLate()).isTrue();
        assertThat(v.reason()).contains("the load generator could not keep the schedule");
        assertThat(new Slo(99, 60_000).judge(r)).isEqualTo(Slo.Verdict.INVALID);
    }

    @Test
    void aStepPastItsCallersCapacityIsInvalidEvenWhenItsLatencyMeetsALooseSlo() throws Exception {
        // one caller, calls of 1 ms or more, 2,000 req/s offered for 100 requests: the queue's 100 ms never reach the
        // 1 s bound, so the percentile alone would call this rate sustainable; the callers served under half of it
        OpenLoop.Call oneMs = () -> Thread.sleep(1);
        StepResult r = OpenLoop.run(List.of(oneMs), Arrivals.CONSTANT.schedule(2000, 100, 1), 2000, 5_000_000_000L);
        Slo loose = new Slo(90, 1000);
        assertThat(r.percentileMs(90)).isLessThan(1000);
        assertThat(r.dropped()).isZero();
        assertThat(Validity.of(r, loose).fellBehind()).isTrue();
        assertThat(loose.judge(r)).isEqualTo(Slo.Verdict.INVALID);
    }

    /**
     * A planted lateness goes through the real measuring path: every 5th of 20 requests (50 ms apart, 1 ms calls) is
     * issued 20 ms after its time, whoever issues it, and reads as late from its time: those four, charged from their
     * time, and so the largest delays. Without the plant at most one request is that late: a loaded machine can hold
     * an issue back by milliseconds (under a full test run beside other builds, two on-time requests read over 10 ms
     * late), rarely by 19.
     */
    @Test
    void heldArrivalsAreIssuedLateAndCountedLate() throws Exception {
        List<OpenLoop.Serve> call = List.of((ids, done) -> {
            Thread.sleep(1);
            return null;
        });
        long[] schedule = Arrivals.CONSTANT.schedule(20, 25, 1);
        StepResult held = OpenLoop.serve(call, OpenLoop.Batching.NONE, schedule.clone(), 5, 20, 5_000_000_000L,
                new HeldArrivals(20_000_000, 5));
        assertThat(held.late(19_000_000)).as("requests 10, 15, 20, 25 of 25 (the first 5 are the warm-up)")
                .isGreaterThanOrEqualTo(4);
        assertThat(held.delaysNs()[16]).isGreaterThanOrEqualTo(20_000_000); // sorted: the four largest
        assertThat(held.percentileMs(100)).isGreaterThanOrEqualTo(21); // 20 ms late, then the call: charged from its time
        StepResult onTime = OpenLoop.serve(call, OpenLoop.Batching.NONE, schedule.clone(), 5, 20, 5_000_000_000L,
                HeldArrivals.NONE);
        assertThat(onTime.late(19_000_000)).isLessThanOrEqualTo(1);
    }

    @Test
    void heldArrivalsAreReadFromTheirProperty() throws Exception {
        assertThat(HeldArrivals.parse("3ms/200")).isEqualTo(new HeldArrivals(3_000_000, 200));
        assertThat(HeldArrivals.parse("3ms/200").of(199)).isEqualTo(3_000_000);
        assertThat(HeldArrivals.parse("3ms/200").of(200)).isZero();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> HeldArrivals.parse("3ms"))
                .hasMessageContaining("expected a delay and every how many requests, e.g. 3ms/200");
    }

    @Test
    void warmUpRequestsAreServedButLeftOutOfTheFigures() throws Exception {
        // the first 5 calls take 100 ms (a cold engine): a 500 ms backlog, which 100 warm-up arrivals at 100 req/s
        // (1 s) outlast. The bar is the cold call's 100 ms, far above what a loaded machine adds to an instant call
        // (20 ms read 30 ms once under a full verify beside other builds)
        AtomicInteger calls = new AtomicInteger();
        OpenLoop.BatchCall coldStart = n -> {
            if (calls.incrementAndGet() <= 5) {
                Thread.sleep(100);
            }
        };
        long[] schedule = Arrivals.CONSTANT.schedule(100, 130, 1);
        StepResult warmed = OpenLoop.run(List.of(coldStart), OpenLoop.Batching.NONE, schedule, 100, 100, 5_000_000_000L);
        assertThat(warmed.requests()).isEqualTo(30);
        assertThat(warmed.servedInAll()).isEqualTo(130);
        assertThat(warmed.percentileMs(100)).isLessThan(100);
        calls.set(0);
        StepResult cold = OpenLoop.run(List.of(coldStart), OpenLoop.Batching.NONE, schedule, 0, 100, 5_000_000_000L);
        assertThat(cold.requests()).isEqualTo(130);
        assertThat(cold.percentileMs(100)).isGreaterThanOrEqualTo(100);
    }

    /**
     * Planted: a constant schedule at R with instant calls serves exactly what it was offered, so served/s reads R at
     * most (up to the ns rounding of the arrival times), also pooled; 16 measured requests over their first-arrival-to-
     * last-end time would read 16/15 R. Goodput, every request within its bound, is no more than served/s.
     */
    @Test
    void instantCallsAtAConstantRateServeNoMoreThanWasOffered() throws Exception {
        double rate = 100;
        long[] schedule = Arrivals.CONSTANT.schedule(rate, 20, 1);
        StepResult r = OpenLoop.run(List.<OpenLoop.BatchCall>of(n -> { }), OpenLoop.Batching.NONE, schedule, 4, rate, 5_000_000_000L);
        assertThat(r.requests()).isEqualTo(16);
        assertThat(r.achievedPerSecond()).isLessThanOrEqualTo(rate * (1 + 1e-9)).isGreaterThan(rate / 2);
        assertThat(r.goodputPerSecond(1_000_000_000L)).isLessThanOrEqualTo(r.achievedPerSecond());
        StepResult pooled = StepResult.pool(List.of(r, OpenLoop.run(List.<OpenLoop.BatchCall>of(n -> { }), OpenLoop.Batching.NONE,
                Arrivals.CONSTANT.schedule(rate, 20, 1), 4, rate, 5_000_000_000L)));
        assertThat(pooled.achievedPerSecond()).isLessThanOrEqualTo(rate * (1 + 1e-9));
    }

    @Test
    void whatTheDrainLimitLeavesIsDroppedAndCountedAsItsWaitSoFar() throws Exception {
        OpenLoop.Call slow = () -> Thread.sleep(20);
        StepResult r = OpenLoop.run(List.of(slow), Arrivals.CONSTANT.schedule(1000, 50, 1), 1000, 50_000_000L);
        assertThat(r.dropped()).isGreaterThan(30).isLessThan(50);
        assertThat(r.completed()).isEqualTo(50 - r.dropped());
        assertThat(new Slo(50, 1e9).metBy(r)).isFalse(); // a step that dropped never meets an SLO
        assertThat(r.percentileMs(100)).isGreaterThan(50); // the dropped waited the whole drain at least
    }

    @Test
    void aFailingCallStopsTheStepWithItsError() {
        OpenLoop.Call broken = () -> {
            throw new IllegalStateException("engine gone");
        };
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> OpenLoop.run(List.of(broken),
                Arrivals.CONSTANT.schedule(1000, 20, 1), 1000, 1_000_000_000L)).hasMessage("engine gone");
    }

    @Test
    void dynamicBatchingServesWhatIsWaitingInOneCallUpToTheMost() throws Exception {
        // 100 requests within 50 ms; a call takes 10 ms whatever it serves: a caller takes up to 8 waiting at once
        List<Integer> sizes = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        OpenLoop.BatchCall tenMs = n -> {
            sizes.add(n);
            Thread.sleep(10);
        };
        StepResult r = OpenLoop.run(List.of(tenMs), new OpenLoop.Batching(8, 0),
                Arrivals.CONSTANT.schedule(2000, 100, 1), 0, 2000, 5_000_000_000L);
        assertThat(r.dropped()).isZero();
        assertThat(sizes.stream().mapToInt(Integer::intValue).sum()).isEqualTo(100); // each request served once
        assertThat(sizes).allMatch(n -> n >= 1 && n <= 8);
        assertThat(r.calls()).isEqualTo(sizes.size());
        assertThat(r.requestsPerCall()).isGreaterThan(4); // one at a time would take 100 calls, 1 s
        assertThat(r.percentileMs(100)).isLessThan(900);
    }

    @Test
    void aBatchingCallerWaitsForMoreRequestsAfterTheFirstAndCountsEachFromItsOwnStart() throws Exception {
        // one request every 10 ms; a caller holds its first for up to 200 ms, so it gathers 4 and serves them together
        List<Integer> sizes = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        StepResult r = OpenLoop.run(List.<OpenLoop.BatchCall>of(sizes::add), new OpenLoop.Batching(4, 200_000_000L),
                Arrivals.CONSTANT.schedule(100, 8, 1), 0, 100, 5_000_000_000L);
        assertThat(sizes).containsExactly(4, 4);
        assertThat(r.requestsPerCall()).isEqualTo(4);
        assertThat(r.percentileMs(100)).isGreaterThan(25); // the first of 4 waited for the fourth, 30 ms later
        assertThat(r.percentileMs(1)).isLessThan(25); // the fourth was served at once
    }

    @Test
    void withoutBatchingEachRequestIsACall() throws Exception {
        StepResult r = OpenLoop.run(List.of(() -> Thread.sleep(1)), Arrivals.CONSTANT.schedule(5000, 50, 1), 5000,
                5_000_000_000L);
        assertThat(r.calls()).isEqualTo(50);
        assertThat(r.requestsPerCall()).isEqualTo(1);
    }
}

package dev.inferbench.tail;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ForkTailTest {
    private static final long MS = 1_000_000;

    /** A recorded call of {@code ms} starting at {@code at} ms, given {@code cause} (or none). */
    private static Attribution.Attributed call(long at, double ms, Cause cause) {
        SlowCall c = new SlowCall(at * MS, at * MS + (long) (ms * MS), (long) (ms * MS), 1);
        return new Attribution.Attributed(c, Map.of(), Map.of(), cause == null ? Set.of() : Set.of(cause), cause);
    }

    /**
     * 1,000 calls of which the recorder kept the slowest 100: 80 of 1 ms, then 20 slow ones: ten of 30 ms given GC,
     * five of 20 ms descheduled and five of 10 ms given nothing.
     */
    private static ForkTail fork() {
        List<Attribution.Attributed> kept = new ArrayList<>();
        long at = 0;
        for (int i = 0; i < 80; i++) {
            kept.add(call(at++ * 50, 1, null));
        }
        for (int i = 0; i < 10; i++) {
            kept.add(call(at++ * 50, 30, Cause.GC));
        }
        for (int i = 0; i < 5; i++) {
            kept.add(call(at++ * 50, 20, Cause.DESCHEDULED));
            kept.add(call(at++ * 50, 10, null));
        }
        return new ForkTail(kept, 1000);
    }

    @Test
    void theTailIsTheCallsAboveTheRankOfTheP99() {
        ForkTail f = fork();
        assertThat(ForkTail.rank(1000)).isEqualTo(990);
        assertThat(f.tailCalls()).isEqualTo(10);
        // the 11th slowest call: the slowest ten are the GC's 30 ms calls
        assertThat(f.p99Ms()).isEqualTo(20.0);
        assertThat(f.shares(f.tailCalls())).containsEntry("gc", 100.0).containsEntry("unexplained", 0.0);
        Map<String, Double> twenty = f.shares(20);
        assertThat(twenty.get("gc")).isEqualTo(50.0, within(1e-9));
        assertThat(twenty.get("descheduled")).isEqualTo(25.0, within(1e-9));
        assertThat(twenty.get("unexplained")).isEqualTo(25.0, within(1e-9));
    }

    @Test
    void withoutACauseItsCallsLeaveTheCountAndTheP99IsTakenAgain() {
        ForkTail f = fork();
        // 990 calls left, rank 981: 9 above it are the 5 of 20 ms and 4 of the 10 ms ones, the p99 the fifth 10 ms
        assertThat(f.withoutMs(Cause.GC)).isEqualTo(10.0);
        assertThat(f.withoutMs(Cause.WAIT)).isEqualTo(f.p99Ms());
    }

    @Test
    void aCompilationIsGivenOnlyToCallsAboveTheForksP90() {
        List<Attribution.Attributed> kept = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            kept.add(call(i * 50L, i < 20 ? 5 : 1, Cause.COMPILE));
        }
        ForkTail f = new ForkTail(kept, 200);
        // the slowest 20 of 200 calls stand above the p90 and keep their compilation; the others lose it
        assertThat(f.slowest().subList(0, 20)).allSatisfy(a -> assertThat(a.main()).isEqualTo(Cause.COMPILE));
        assertThat(f.slowest().subList(20, 200)).allSatisfy(a -> {
            assertThat(a.main()).isNull();
            assertThat(a.given()).isEmpty();
        });
    }

    @Test
    void underAHundredCallsThereIsNoP99() {
        ForkTail f = new ForkTail(List.of(call(0, 5, Cause.GC)), 99);
        assertThat(f.p99Ms()).isNaN();
        assertThat(f.tailCalls()).isZero();
        assertThat(f.figures(List.of()).get(TailMetrics.share("gc"))).isNaN();
    }

    @Test
    void aP99TheRecorderDidNotKeepIsNotGuessed() {
        ForkTail f = new ForkTail(List.of(call(0, 5, null), call(10, 6, null)), 10_000);
        assertThat(f.p99Ms()).isNaN();
        assertThat(f.figures(List.of()).get(TailMetrics.MISSED)).isEqualTo(99.0);
    }

    @Test
    void plantedCallsCountAsHitWhenGivenTheirCauseAndCleanCallsAsFalseWhenGivenAny() {
        ForkTail f = fork();
        // plants in the first two GC calls (ids 80 and 81, at 4000 and 4050 ms) and in a 1 ms call given nothing
        List<ForkTail.Planted> planted = List.of(new ForkTail.Planted("gc", 4000 * MS + 1, 1),
                new ForkTail.Planted("gc", 4050 * MS + 1, 1), new ForkTail.Planted("gc", 50 * MS, 1),
                new ForkTail.Planted("gc", 4000 * MS + 1, 2));
        Map<String, Double> p = f.plantedFigures(planted);
        // two of four hit: the third's call was given nothing, the fourth is on a thread with no recorded call
        assertThat(p.get(TailMetrics.PLANTED_HIT)).isEqualTo(50.0);
        // 996 of the 1,000 calls had nothing planted: 8 GC and 5 descheduled of them have a main cause
        assertThat(p.get(TailMetrics.UNPLANTED_CAUSED)).isEqualTo(100.0 * 13 / 996, within(1e-9));
    }
}

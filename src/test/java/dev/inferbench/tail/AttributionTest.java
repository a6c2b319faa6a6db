package dev.inferbench.tail;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class AttributionTest {
    private static final long MS = 1_000_000;
    private static final long CALLER = 7;

    /** A call from {@code fromMs} to {@code toMs} that had {@code cpuMs} of its thread's CPU. */
    private static SlowCall call(double fromMs, double toMs, double cpuMs) {
        return new SlowCall((long) (fromMs * MS), (long) (toMs * MS), (long) (cpuMs * MS), CALLER);
    }

    private static Episode episode(Cause cause, double fromMs, double toMs, long thread) {
        return new Episode(cause, (long) (fromMs * MS), (long) (toMs * MS), thread, cause.key());
    }

    @Test
    void aPauseInsideTheCallIsItsCauseAndNotAlsoDescheduling() {
        // 10 ms call, 2 ms of CPU: the 8 ms off CPU are the pause's (two phases overlapping count once)
        Attribution a = new Attribution(List.of(episode(Cause.GC, 1, 7, Episode.ALL_THREADS),
                episode(Cause.GC, 5, 9, Episode.ALL_THREADS)));
        Attribution.Attributed r = a.of(call(0, 10, 2));
        assertThat(r.main()).isEqualTo(Cause.GC);
        assertThat(r.overlaps().get(Cause.GC)).isEqualTo(8 * MS);
        assertThat(r.given()).containsExactly(Cause.GC);
    }

    @Test
    void timeOffTheCpuThatNothingExplainsIsDescheduling() {
        Attribution a = new Attribution(List.of(episode(Cause.SAFEPOINT, 2, 3, Episode.ALL_THREADS)));
        Attribution.Attributed r = a.of(call(0, 10, 4)); // 6 ms off CPU, 1 ms of it the safepoint's
        assertThat(r.overlaps().get(Cause.DESCHEDULED)).isEqualTo(5 * MS);
        assertThat(r.main()).isEqualTo(Cause.DESCHEDULED);
        assertThat(r.given()).containsExactlyInAnyOrder(Cause.DESCHEDULED, Cause.SAFEPOINT);
    }

    @Test
    void aCallOnItsCpuThroughoutWithNothingBesideItIsUnexplained() {
        Attribution.Attributed r = new Attribution(List.of()).of(call(0, 10, 10));
        assertThat(r.explained()).isFalse();
        assertThat(r.overlaps()).isEmpty();
    }

    @Test
    void aCauseOverlappingUnderATenthOfTheCallIsListedButNotGiven() {
        Attribution a = new Attribution(List.of(episode(Cause.COMPILE, 9.5, 30, Episode.ALL_THREADS)));
        Attribution.Attributed r = a.of(call(0, 10, 10));
        assertThat(r.overlaps()).containsKey(Cause.COMPILE);
        assertThat(r.given()).isEmpty();
        assertThat(r.main()).isNull();
    }

    @Test
    void anotherThreadsWaitIsNotTheCallersButItsOwnIsAndTakesNothingFromDescheduling() {
        Attribution a = new Attribution(List.of(episode(Cause.WAIT, 0, 10, CALLER + 1),
                episode(Cause.WAIT, 2, 6, CALLER), episode(Cause.DEOPT, 8, 8, CALLER)));
        Attribution.Attributed r = a.of(call(0, 10, 6));
        assertThat(r.overlaps().get(Cause.WAIT)).isEqualTo(4 * MS);
        assertThat(r.overlaps()).doesNotContainKey(Cause.DESCHEDULED);
        assertThat(r.given()).containsExactlyInAnyOrder(Cause.WAIT, Cause.DEOPT);
        assertThat(r.main()).isEqualTo(Cause.WAIT);
    }

    @Test
    void aLongEpisodeThatBeganLongBeforeTheCallIsStillFound() {
        Attribution a = new Attribution(List.of(episode(Cause.COMPILE, 0, 1000, Episode.ALL_THREADS),
                episode(Cause.GC, 10, 11, Episode.ALL_THREADS), episode(Cause.GC, 600, 601, Episode.ALL_THREADS)));
        Attribution.Attributed r = a.of(call(500, 510, 10));
        assertThat(r.overlaps()).containsOnlyKeys(Cause.COMPILE);
        assertThat(r.main()).isEqualTo(Cause.COMPILE);
    }

    @Test
    void aCompilationBesideThePauseIsGivenButThePauseIsTheMainCause() {
        Attribution a = new Attribution(List.of(episode(Cause.COMPILE, 0, 10, Episode.ALL_THREADS),
                episode(Cause.GC, 1, 9, Episode.ALL_THREADS)));
        Attribution.Attributed r = a.of(call(0, 10, 2));
        assertThat(r.given()).containsExactlyInAnyOrder(Cause.GC, Cause.COMPILE);
        assertThat(r.main()).isEqualTo(Cause.GC);
    }

    @Test
    void coveredCountsTimeSharedBySpansOnce() {
        assertThat(Attribution.covered(List.of(new long[] {0, 5}, new long[] {3, 8}, new long[] {10, 12})))
                .isEqualTo(10);
        assertThat(Attribution.covered(List.of())).isZero();
    }
}

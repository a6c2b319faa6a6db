package dev.inferbench.tail;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SlowCallsTest {
    @Test
    void theThresholdIsTheWindowsNinetiethPercentile() {
        long[] window = new long[100];
        java.util.Arrays.fill(window, 0, 90, 1_000);
        java.util.Arrays.fill(window, 90, 100, 50_000);
        assertThat(SlowCalls.percentile(window, 90)).isEqualTo(50_000);
        window[90] = 1_000; // 91 fast calls, 9 slow: the 91st call is a fast one
        assertThat(SlowCalls.percentile(window, 90)).isEqualTo(1_000);
        assertThat(SlowCalls.percentile(window, 99)).isEqualTo(50_000);
    }

    @Test
    void callsCloseTogetherAreKeptATenthAtATime() {
        // 512 calls of 3,000-3,511 ns: one bucket of a histogram of four an octave, which kept every one of them
        long[] window = new long[SlowCalls.WINDOW];
        for (int i = 0; i < window.length; i++) {
            window[i] = 3_000 + i;
        }
        long t = SlowCalls.percentile(window, 90);
        long kept = java.util.Arrays.stream(window).filter(d -> d >= t).count();
        assertThat(kept).isBetween(51L, 52L);
    }

    @Test
    void afterAWindowOnlyTheSlowCallsAreKeptAndTheDrainCountsEveryCall() {
        SlowCalls s = SlowCalls.unlisted();
        int calls = 0;
        for (int w = 0; w < 2; w++) {
            for (int i = 0; i < SlowCalls.WINDOW; i++, calls++) {
                // seven fast calls of ~0 ns, then one of 5 ms and a step of 10 us for each slow call before it in
                // the window (steps far above the clock's jitter between two windows)
                s.end(i % 8 == 7 ? System.nanoTime() - 5_000_000 - 10_000L * (i / 8) : System.nanoTime());
            }
        }
        SlowCalls.Drained d = s.drain();
        assertThat(d.callsMade()).isEqualTo(calls);
        assertThat(d.lost()).isZero();
        // the first window keeps every call (no threshold yet); the second those at or above the first's p90 (the
        // 13th of its 64 slow calls from the fastest): 51 or 52 of the second's 64 with the clock's jitter
        List<SlowCall> second = d.calls().subList(SlowCalls.WINDOW, d.calls().size());
        assertThat(second).hasSizeBetween(50, 53)
                .allSatisfy(c -> assertThat(c.nanos()).isGreaterThanOrEqualTo(5_000_000));
        assertThat(d.calls()).allSatisfy(c -> assertThat(c.thread()).isEqualTo(Thread.currentThread().getId()));
        assertThat(s.drain().calls()).as("a second drain has nothing new").isEmpty();
    }

    @Test
    void theCpuClockIsReadAtTheEndOfEveryCallAboveTheWindowsP99AndNowAndThenBetween() {
        SlowCalls s = SlowCalls.unlisted();
        for (int i = 0; i < SlowCalls.WINDOW; i++) {
            s.end(System.nanoTime() - (i % 100 == 99 ? 5_000_000 : 0));
        }
        s.drain();
        for (int i = 0; i < SlowCalls.WINDOW; i++) {
            s.end(System.nanoTime() - (i % 100 == 99 ? 5_000_000 : 0));
        }
        java.util.List<SlowCall> slow = s.drain().calls().stream().filter(c -> c.nanos() >= 5_000_000).toList();
        // 1 % of the calls take 5 ms: above the p90 and the p99, each has its reading and its CPU time since the last
        assertThat(slow).hasSizeGreaterThanOrEqualTo(5); // and any call the machine made that slow
        assertThat(slow).allSatisfy(c -> {
            assertThat(c.cpuKnown()).isTrue();
            assertThat(c.cpuFrom()).isLessThanOrEqualTo(c.end());
        });
    }

    @Test
    void aRingOverwrittenBetweenDrainsSaysHowManyItLost() {
        SlowCalls s = SlowCalls.unlisted();
        int made = SlowCalls.CAPACITY + 1000;
        for (int i = 0; i < made; i++) {
            // every call slower than the last: above the threshold its window before set, so all kept
            s.end(System.nanoTime() - 1_000_000 - 1_000L * i);
        }
        SlowCalls.Drained d = s.drain();
        assertThat(d.calls().size() + d.lost()).isEqualTo(made);
        assertThat(d.calls()).hasSize(SlowCalls.CAPACITY);
    }

    @Test
    void offItRecordsNothingAndReadsNoClock() {
        System.clearProperty(SlowCalls.PROPERTY);
        SlowCalls off = SlowCalls.forThisThread();
        assertThat(off.start()).isZero();
        off.end(0);
        assertThat(SlowCalls.all()).doesNotContain(off);
    }

    /**
     * An open-loop caller's record outlives the step's thread: the next step's caller (a new thread) records on the
     * same one, under its own id, and a call after a wait for requests is not read as time off the CPU.
     */
    @Test
    void aServingCallersRecordIsBoundToEachStepsThreadAndAWaitIsNotDescheduling() throws Exception {
        System.setProperty(SlowCalls.PROPERTY, "unused-dir");
        try {
            SlowCalls[] seen = new SlowCalls[2];
            long[] ids = new long[2];
            long[] resumed = new long[1];
            for (int step = 0; step < 2; step++) {
                int k = step;
                Thread t = new Thread(() -> {
                    SlowCalls s = SlowCalls.forCaller(41);
                    seen[k] = s;
                    ids[k] = Thread.currentThread().getId();
                    if (k == 1) {
                        sleep(30); // waiting for a request: off the CPU, but not during a call
                        resumed[0] = System.nanoTime();
                        s.resumes();
                        long start = System.nanoTime();
                        while (System.nanoTime() - start < 5_000_000) {
                            Thread.onSpinWait(); // the call: 5 ms on the CPU
                        }
                        s.ended(start, System.nanoTime());
                    }
                });
                t.start();
                t.join();
            }
            assertThat(seen[1]).isSameAs(seen[0]);
            assertThat(SlowCalls.all()).contains(seen[0]);
            List<SlowCall> calls = seen[1].drain().calls();
            assertThat(calls).hasSize(1);
            SlowCall c = calls.get(0);
            assertThat(c.thread()).isEqualTo(ids[1]).isNotEqualTo(ids[0]);
            // the CPU clock's reading before the call is the one at its start, not the one before the 30 ms wait
            // (which would make the whole call "off the CPU", whatever the machine did)
            assertThat(c.cpuKnown()).isTrue();
            assertThat(c.cpuFrom()).isBetween(resumed[0], c.start());
            assertThat(c.cpuNanos()).isPositive();
        } finally {
            System.clearProperty(SlowCalls.PROPERTY);
        }
    }

    /** Each drain says when its first call began, kept or not: where a measured window's calls start. */
    @Test
    void aDrainGivesItsFirstCallsStart() {
        SlowCalls s = SlowCalls.unlisted();
        long first = System.nanoTime();
        s.ended(first, first + 10);
        s.ended(first + 20, first + 30);
        assertThat(s.drain().firstStart()).isEqualTo(first);
        assertThat(s.drain().firstStart()).as("no call since").isEqualTo(-1);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

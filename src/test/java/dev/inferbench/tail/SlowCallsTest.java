package dev.inferbench.tail;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SlowCallsTest {
    @Test
    void eachBucketStartsWhereTheLastEndsAndHoldsItsLowestValue() {
        for (int b = 1; b < 240; b++) {
            assertThat(SlowCalls.bucket(SlowCalls.lowest(b))).as("bucket %d", b).isEqualTo(b);
            assertThat(SlowCalls.bucket(SlowCalls.lowest(b) - 1)).as("below bucket %d", b).isEqualTo(b - 1);
        }
        // four buckets an octave: a bucket is at most a quarter wider than its lowest value
        assertThat(SlowCalls.lowest(SlowCalls.bucket(1_000_000) + 1) / (double) SlowCalls.lowest(
                SlowCalls.bucket(1_000_000))).isLessThanOrEqualTo(1.25);
    }

    @Test
    void theThresholdIsTheBucketOfTheWindowsNinetiethPercentile() {
        int[] window = new int[256];
        window[SlowCalls.bucket(1_000)] = 90;
        window[SlowCalls.bucket(50_000)] = 10;
        assertThat(SlowCalls.percentile(window, 100, 90)).isEqualTo(SlowCalls.lowest(SlowCalls.bucket(50_000)));
        window[SlowCalls.bucket(1_000)] = 91;
        window[SlowCalls.bucket(50_000)] = 9;
        assertThat(SlowCalls.percentile(window, 100, 90)).isEqualTo(SlowCalls.lowest(SlowCalls.bucket(1_000)));
    }

    @Test
    void afterAWindowOnlyTheSlowCallsAreKeptAndTheDrainCountsEveryCall() {
        SlowCalls s = SlowCalls.unlisted();
        int calls = 0;
        for (int w = 0; w < 2; w++) {
            for (int i = 0; i < SlowCalls.WINDOW; i++, calls++) {
                // four fast calls of ~0 ns, then one that started 5 ms ago
                s.end(i % 5 == 4 ? System.nanoTime() - 5_000_000 : System.nanoTime());
            }
        }
        SlowCalls.Drained d = s.drain();
        assertThat(d.callsMade()).isEqualTo(calls);
        assertThat(d.lost()).isZero();
        // the first window keeps every call (no threshold yet); the second only its slow fifth
        long slowInSecond = SlowCalls.WINDOW / 5;
        // (and any fast call the machine itself held up as long: kept, as it should be)
        assertThat(d.calls()).hasSizeGreaterThanOrEqualTo(SlowCalls.WINDOW + (int) slowInSecond)
                .hasSizeLessThan(SlowCalls.WINDOW + 2 * (int) slowInSecond);
        assertThat(d.calls().subList(SlowCalls.WINDOW, d.calls().size())).allSatisfy(c -> assertThat(c.nanos())
                .isGreaterThanOrEqualTo(SlowCalls.lowest(SlowCalls.bucket(5_000_000))));
        assertThat(d.calls()).allSatisfy(c -> assertThat(c.thread()).isEqualTo(Thread.currentThread().getId()));
        assertThat(s.drain().calls()).as("a second drain has nothing new").isEmpty();
    }

    @Test
    void theCpuClockIsReadAtTheEndOfEveryCallAboveTheWindowsP99AndNowAndThenBetween() {
        SlowCalls s = SlowCalls.unlisted();
        for (int i = 0; i < SlowCalls.WINDOW; i++) {
            s.end(System.nanoTime() - (i % 50 == 49 ? 5_000_000 : 0));
        }
        s.drain();
        for (int i = 0; i < SlowCalls.WINDOW; i++) {
            s.end(System.nanoTime() - (i % 50 == 49 ? 5_000_000 : 0));
        }
        java.util.List<SlowCall> slow = s.drain().calls().stream().filter(c -> c.nanos() >= 5_000_000).toList();
        // 2 % of the calls take 5 ms: above the p90 and the p99, each has its reading and its CPU time since the last
        assertThat(slow).hasSizeGreaterThanOrEqualTo(10); // and any call the machine made that slow
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
            s.end(System.nanoTime() - 1_000_000); // every call as slow as the threshold: all kept
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
}

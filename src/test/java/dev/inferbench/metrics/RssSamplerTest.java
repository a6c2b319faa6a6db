package dev.inferbench.metrics;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class RssSamplerTest {
    private long now;
    private long rssKb;

    @AfterEach
    void forget() {
        SetupRecord.clear();
    }

    private RssSampler sampler() {
        return new RssSampler(() -> rssKb, () -> now, 0);
    }

    /** A set that sits at 100 MiB for 9 s and at 200 MiB for 1 s averages 110 MiB; its end reading says 200. */
    @Test
    void theSteadyFigureIsATimeAverageNotTheEndReading() {
        RssSampler s = sampler();
        rssKb = 100 * 1024;
        s.start();
        now = 9_000_000_000L;
        s.sampleNow();
        rssKb = 200 * 1024;
        now += 1;
        s.sampleNow();
        now = 10_000_000_000L;
        RssSeries series = s.stop();
        assertThat(series.mib()).containsExactly(100, 100, 200, 200);
        assertThat(series.timeAverage()).isCloseTo(110.0, within(1e-6));
    }

    /** JMH runs the trial's teardown inside the last measured iteration: what it frees is not the calls' memory. */
    @Test
    void readingsAfterTheCallsEndedAreDropped() {
        long base = System.nanoTime() - 1_000_000; // the mark below comes at least 1 ms after the first readings
        RssSampler s = new RssSampler(() -> rssKb, () -> base + now, 0);
        rssKb = 400 * 1024;
        s.start();
        now = 1;
        s.sampleNow();
        SetupRecord.callsEnded();
        now = 1_000_000_000_000L;
        rssKb = 100 * 1024; // the model freed
        s.sampleNow();
        assertThat(s.stop().mib()).containsExactly(400, 400);
        SetupRecord.clear();
        s.start();
        s.sampleNow();
        assertThat(s.stop().mib()).as("without the mark every reading counts").containsExactly(100, 100, 100);
    }

    @Test
    void aLongIterationKeepsEveryOtherReadingOnceFull() {
        RssSampler s = sampler();
        s.start();
        for (int i = 1; i < RssSampler.CAPACITY + 10; i++) {
            now = i;
            rssKb = i;
            s.sampleNow();
        }
        RssSeries series = s.stop();
        assertThat(series.nanos().length).isLessThanOrEqualTo(RssSampler.CAPACITY).isGreaterThan(RssSampler.CAPACITY / 2);
        assertThat(series.nanos()[0]).isZero();
        assertThat(series.nanos()[series.nanos().length - 1]).as("the end reading is kept").isEqualTo(now);
    }

    @Test
    void statmReadsThisProcesssResidentSet() {
        long before = ProcStatus.read().rssKb();
        assumeTrue(before > 0, "Linux /proc");
        long statm = StatmSource.open().rssKb();
        long after = ProcStatus.read().rssKb();
        // other tests in this JVM may grow or free the heap between the reads: statm must lie within what
        // /proc/self/status read just before and just after it, give or take 16 MiB
        assertThat(statm).isBetween(Math.min(before, after) - 16 * 1024, Math.max(before, after) + 16 * 1024);
    }
}

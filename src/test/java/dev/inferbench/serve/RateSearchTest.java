package dev.inferbench.serve;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/** The search against services whose knee is known: a step meets the SLO exactly when its rate is at most the knee. */
class RateSearchTest {

    /** A step whose every latency is 1 ms below the knee and 100 ms above it. */
    private static RateSearch.Step service(double knee) {
        return rate -> {
            long[] lat = new long[100];
            Arrays.fill(lat, rate <= knee ? 1_000_000 : 100_000_000);
            return new StepResult(rate, lat, 0, 0, 0, 0, 1_000_000_000L);
        };
    }

    @Test
    void bracketsTheKneeAndNarrowsItToTheResolutionWhenTheStepsAllow() throws Exception {
        Slo slo = Slo.parse("p90<10ms");
        for (double knee : new double[]{3, 11, 37, 55, 79.9}) {
            RateSearch.Found f = RateSearch.find(service(knee), slo, 80);
            assertThat(f.sustainable()).as("knee " + knee).isLessThanOrEqualTo(knee);
            assertThat(f.failing()).as("knee " + knee).isGreaterThan(knee);
            assertThat(f.steps()).hasSizeLessThanOrEqualTo(RateSearch.MAX_STEPS);
            assertThat(slo.metBy(f.best())).isTrue();
            if (knee > 80 / 4.0) {
                // two halvings at most leave the steps to bisect down to the resolution; below, the step budget bounds it
                assertThat((f.failing() - f.sustainable()) / f.failing()).as("knee " + knee)
                        .isLessThanOrEqualTo(RateSearch.RESOLUTION);
            }
        }
    }

    @Test
    void aServiceFasterThanItsCapacityEstimateIsBoundedAbove() throws Exception {
        RateSearch.Found f = RateSearch.find(service(1000), Slo.parse("p90<10ms"), 80);
        assertThat(f.sustainable()).isEqualTo(100); // 1.25 x the capacity met it too: the search says so, no more
        assertThat(f.failing()).isNaN();
    }

    @Test
    void anSloNoRateMeetsGivesZero() throws Exception {
        RateSearch.Found f = RateSearch.find(service(0), Slo.parse("p90<10ms"), 80);
        assertThat(f.sustainable()).isZero();
        assertThat(f.steps()).isNotEmpty().hasSizeLessThanOrEqualTo(RateSearch.MAX_STEPS);
    }
}

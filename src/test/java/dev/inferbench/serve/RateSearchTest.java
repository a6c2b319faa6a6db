package dev.inferbench.serve;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The search against simulated services whose knee is known: noiseless ones, one that keeps its latency past its
 * capacity (the queue has no time to grow in a short step), a noisy one whose true percentile crosses the bound at the
 * knee, and a flaky one that passes a rate once and fails it the next time.
 */
class RateSearchTest {
    private static final Slo P90_10MS = new Slo(90, 10);

    /** A step of 100 requests whose every latency is 1 ms below the knee and 100 ms above it, served at its rate. */
    private static RateSearch.Step service(double knee) {
        return rate -> {
            long[] lat = new long[100];
            Arrays.fill(lat, rate <= knee ? 1_000_000 : 100_000_000);
            return StepResult.of(rate, lat, 0, (long) (100 / rate * 1e9));
        };
    }

    @Test
    void bracketsTheKneeAndNarrowsItToTheResolutionWhenTheStepsAllow() throws Exception {
        for (double knee : new double[]{3, 11, 37, 55, 79.9}) {
            RateSearch.Found f = RateSearch.find(service(knee), P90_10MS, 80, 1e6);
            assertThat(f.sustainable()).as("knee " + knee).isLessThanOrEqualTo(knee);
            assertThat(f.failing()).as("knee " + knee).isGreaterThan(knee);
            assertThat(f.ceiling()).isFalse();
            assertThat(f.nonMonotone()).isZero();
            assertThat(P90_10MS.metBy(f.best())).isTrue();
            if (knee > 80 / 4.0) {
                // two halvings at most leave the rates to bisect down to the resolution; below, the budget bounds it
                assertThat((f.failing() - f.sustainable()) / f.failing()).as("knee " + knee)
                        .isLessThanOrEqualTo(RateSearch.RESOLUTION);
            }
        }
    }

    @Test
    void aPassingTopRateIsACeilingNotAKnee() throws Exception {
        // from a capacity of 80, 1.25 x at a time: every rate the search may try meets it, so it can say no more
        RateSearch.Found f = RateSearch.find(service(1e9), P90_10MS, 80, 1e6);
        assertThat(f.tried()).hasSize(RateSearch.MAX_RATES);
        assertThat(f.sustainable()).isCloseTo(80 * Math.pow(RateSearch.ABOVE, RateSearch.MAX_RATES - 1),
                org.assertj.core.data.Offset.offset(1e-6));
        assertThat(f.ceiling()).isTrue();
        assertThat(f.failing()).isNaN();
        // the generator's top bounds the search: a capacity above it starts there, and passing there is a ceiling
        RateSearch.Found capped = RateSearch.find(service(1e9), P90_10MS, 50_000, 20_000);
        assertThat(capped.sustainable()).isEqualTo(20_000);
        assertThat(capped.ceiling()).isTrue();
        assertThat(capped.tried()).extracting(RateSearch.Tried::rate).allMatch(r -> r <= 20_000);
    }

    /**
     * The capacity a fork reads in its warm-up can be well under what its service serves later (a search on the zoo's
     * resnet-tiny read 1,881 req/s there and met 2,351): the search climbs past it to the knee instead of reporting
     * the first rate above it as a ceiling.
     */
    @Test
    void aCapacityBelowTheKneeClimbsToIt() throws Exception {
        RateSearch.Found f = RateSearch.find(service(130), P90_10MS, 80, 1e6);
        assertThat(f.trail()).startsWith("80/s met, 100/s met, 125/s met, 156/s missed");
        assertThat(f.ceiling()).isFalse();
        assertThat(f.sustainable()).isLessThanOrEqualTo(130).isGreaterThan(130 * (1 - 2 * RateSearch.RESOLUTION));
        assertThat(f.failing()).isGreaterThan(130);
    }

    @Test
    void anSloNoRateMeetsGivesZero() throws Exception {
        RateSearch.Found f = RateSearch.find(service(0), P90_10MS, 80, 1e6);
        assertThat(f.sustainable()).isZero();
        assertThat(f.ceiling()).isFalse();
        assertThat(f.tried()).isNotEmpty().hasSizeLessThanOrEqualTo(RateSearch.MAX_RATES);
    }

    @Test
    void aStepPastCapacityNeverMeetsTheSloHoweverFastItsRequests() throws Exception {
        // every request takes 1 ms (the SLO's percentile is met at any rate), but the callers serve at most 50 req/s:
        // above that they fall behind and the step is INVALID, so the search settles at or below 50, not at 100
        RateSearch.Step capped = rate -> {
            long[] lat = new long[100];
            Arrays.fill(lat, 1_000_000);
            return StepResult.of(rate, lat, 0, (long) (100 / Math.min(rate, 50) * 1e9));
        };
        RateSearch.Found f = RateSearch.find(capped, P90_10MS, 80, 1e6);
        assertThat(f.sustainable()).isLessThanOrEqualTo(50 / Validity.KEEP_UP).isGreaterThan(40);
        assertThat(f.ceiling()).isFalse();
        assertThat(f.tried().get(0).verdict()).isEqualTo(Slo.Verdict.INVALID);
        assertThat(f.trail()).startsWith("80/s INVALID (behind), 40/s met");
    }

    /**
     * A service that serves 100 req/s for its first three steps and 80 from then on (a shared machine's slow stretch):
     * the knee found early fails when stepped again, and with nothing met below it the search steps down until a
     * rate holds, instead of reporting none, and counts the contradiction.
     */
    @Test
    void aKneeThatNoLongerHoldsIsSteppedDownFrom() throws Exception {
        int[] steps = {0};
        RateSearch.Step slowing = rate -> {
            double capacity = steps[0]++ < 3 ? 100 : 80;
            long[] lat = new long[100];
            Arrays.fill(lat, 1_000_000);
            return StepResult.of(rate, lat, 0, (long) (100 / Math.min(rate, capacity) * 1e9));
        };
        RateSearch.Found f = RateSearch.find(slowing, P90_10MS, 100, 1e6);
        assertThat(f.sustainable()).isGreaterThan(60).isLessThanOrEqualTo(80 / Validity.KEEP_UP);
        assertThat(f.nonMonotone()).isPositive();
        assertThat(f.tried().size()).isLessThanOrEqualTo(RateSearch.MAX_TRIES);
    }

    /**
     * Each request exceeds the bound with probability 0.1 x (rate / knee)^4: the true p90 equals the bound exactly at
     * the knee, and a step of 100 requests near it passes or fails by chance (seeded per search and step).
     */
    private static RateSearch.Step noisy(double knee, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        return rate -> {
            double q = Math.min(1, 0.1 * Math.pow(rate / knee, 4));
            long[] lat = new long[100];
            for (int i = 0; i < lat.length; i++) {
                lat[i] = random.nextDouble() < q ? 20_000_000 : 1_000_000;
            }
            Arrays.sort(lat);
            return StepResult.of(rate, lat, 0, (long) (100 / rate * 1e9));
        };
    }

    @Test
    void aNoisyServiceCannotWalkTheSearchAboveItsKnee() throws Exception {
        // with the sample p90 alone, a step just above the knee passes about half the time and the bisection follows
        // it up; with the count over the bound judged at 95 % and the knee confirmed, few searches end above it
        int above = 0;
        double sum = 0;
        int searches = 200;
        for (int s = 0; s < searches; s++) {
            RateSearch.Found f = RateSearch.find(noisy(60, s), P90_10MS, 80, 1e6);
            above += f.sustainable() > 60 ? 1 : 0;
            sum += f.sustainable();
        }

        assertThat(above).as("searches that settled above the knee, of " + searches).isLessThanOrEqualTo(searches / 20);
        // the price, as docs/serving.md states it: the estimate is biased low (52.2 of 60 on average here, with steps
        // of 100 requests; the sample p90 without confirmation ended above the knee in 59 of these 200 searches)
        assertThat(sum / searches).isBetween(0.8 * 60, 60.0);
    }

    @Test
    void aRateThatPassesOnceAndFailsAgainIsShownAndNotReported() throws Exception {
        // a flaky service: below 30 req/s always fine; at or above 30 a rate passes its first try and fails after
        Map<Double, Integer> tries = new HashMap<>();
        RateSearch.Step flaky = rate -> {
            int n = tries.merge(rate, 1, Integer::sum);
            long[] lat = new long[100];
            Arrays.fill(lat, rate < 30 || (n == 1 && rate < 70) ? 1_000_000 : 100_000_000);
            return StepResult.of(rate, lat, 0, (long) (100 / rate * 1e9));
        };
        RateSearch.Found f = RateSearch.find(flaky, P90_10MS, 80, 1e6);
        assertThat(f.nonMonotone()).isPositive();
        assertThat(f.trail()).contains("missed");
        assertThat(f.sustainable()).isLessThan(f.failing());
        // the knee the bisection reached (at or above 30) failed its confirmation: the search fell back below it
        assertThat(f.failing()).isGreaterThanOrEqualTo(30);
    }

    @Test
    void aStepThatCannotTellIsRepeatedAndPooled() throws Exception {
        // 9 of 100 over the bound: a sample p90 within it, but too close to tell at 95 %; three steps pooled still
        // cannot (27 of 300), so the rate counts as not met
        RateSearch.Step borderline = rate -> {
            long[] lat = new long[100];
            Arrays.fill(lat, 1_000_000);
            Arrays.fill(lat, 91, 100, 20_000_000);
            return StepResult.of(rate, lat, 0, (long) (100 / rate * 1e9));
        };
        RateSearch.Found f = RateSearch.find(borderline, P90_10MS, 80, 1e6);
        assertThat(f.tried().get(0).steps()).isEqualTo(RateSearch.MAX_REPEATS);
        assertThat(f.tried().get(0).verdict()).isEqualTo(Slo.Verdict.UNSURE);
        assertThat(f.tried().get(0).pooled().requests()).isEqualTo(300);
        assertThat(f.sustainable()).isZero();
    }
}

package dev.inferbench.serve;

import dev.inferbench.BenchException;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class ArrivalsAndSloTest {

    @Test
    void poissonGapsHaveTheRatesMeanAndSpreadAndRepeatWithTheSeed() {
        long[] at = Arrivals.POISSON.schedule(50, 20_001, 7);
        double[] gaps = new double[at.length - 1];
        for (int i = 1; i < at.length; i++) {
            gaps[i - 1] = (at[i] - at[i - 1]) / 1e6;
        }
        double mean = Arrays.stream(gaps).average().orElseThrow();
        double var = Arrays.stream(gaps).map(g -> (g - mean) * (g - mean)).sum() / (gaps.length - 1);
        // exponential gaps of mean 20 ms: the standard deviation equals the mean; 20,000 gaps hold both within ~2 %
        assertThat(mean).isCloseTo(20.0, within(0.6));
        assertThat(Math.sqrt(var)).isCloseTo(20.0, within(0.8));
        assertThat(at[0]).isZero();
        assertThat(Arrivals.POISSON.schedule(50, 100, 7)).containsExactly(Arrays.copyOf(at, 100));
        assertThat(Arrivals.POISSON.schedule(50, 100, 8)).isNotEqualTo(Arrays.copyOf(at, 100));
    }

    @Test
    void constantArrivalsAreEvenlySpaced() {
        assertThat(Arrivals.CONSTANT.schedule(40, 4, 1)).containsExactly(0, 25_000_000, 50_000_000, 75_000_000);
    }

    @Test
    void sloReadsPercentileAndBoundInAnyUnit() throws BenchException {
        assertThat(Slo.parse("p99<50ms")).isEqualTo(new Slo(99, 50));
        assertThat(Slo.parse("p99.9 <= 1s")).isEqualTo(new Slo(99.9, 1000));
        assertThat(Slo.parse("p90<200us")).isEqualTo(new Slo(90, 0.2));
        assertThat(Slo.parse("p99<50ms").requestsNeeded()).isEqualTo(1000);
        assertThat(Slo.parse("p90<1ms").requestsNeeded()).isEqualTo(100);
        assertThat(Slo.parse("p99<50ms")).hasToString("p99<50ms");
        for (String bad : new String[]{"fast", "p100<5ms", "p0<5ms", "p99<0ms", "99<5ms", "p99<5"}) {
            assertThatThrownBy(() -> Slo.parse(bad)).as(bad).isInstanceOf(BenchException.class)
                    .hasMessageContaining("SLO '" + bad + "'");
        }
    }

    @Test
    void anSloIsMetByTheStepsPercentileAndNeverByAStepThatDropped() throws BenchException {
        Slo slo = Slo.parse("p90<10ms");
        long[] fast = new long[100];
        Arrays.fill(fast, 5_000_000);
        fast[95] = 50_000_000; // beyond the 90th: allowed
        Arrays.sort(fast);
        assertThat(slo.judge(StepResult.of(10, fast, 0, 10_000_000_000L))).isEqualTo(Slo.Verdict.MET);
        assertThat(slo.judge(StepResult.of(10, fast, 1, 10_000_000_000L))).isEqualTo(Slo.Verdict.MISSED);
        long[] slow = fast.clone();
        Arrays.fill(slow, 80, 100, 11_000_000);
        Arrays.sort(slow);
        assertThat(slo.judge(StepResult.of(10, slow, 0, 10_000_000_000L))).isEqualTo(Slo.Verdict.MISSED);
    }

    @Test
    void aSamplePercentileWithinTheBoundIsNotEnoughWhenTheCountCannotTell() throws BenchException {
        Slo slo = Slo.parse("p90<10ms");
        long[] close = new long[100];
        Arrays.fill(close, 5_000_000);
        Arrays.fill(close, 91, 100, 11_000_000); // 9 over: the sample p90 is 5 ms, the true one may well be over
        assertThat(StepResult.of(10, close, 0, 10_000_000_000L).percentileMs(90)).isLessThan(10);
        assertThat(slo.judge(StepResult.of(10, close, 0, 10_000_000_000L))).isEqualTo(Slo.Verdict.UNSURE);
        assertThat(slo.metBy(StepResult.of(10, close, 0, 10_000_000_000L))).isFalse();
    }

    @Test
    void anInvalidStepNeverMeetsItsSloHoweverFast() throws BenchException {
        Slo slo = Slo.parse("p99<50ms");
        long[] fast = new long[1000];
        Arrays.fill(fast, 1_000_000);
        // served 1,000 requests in 2 s at an offered 1,000 req/s: the callers fell behind
        StepResult behind = StepResult.of(1000, fast, 0, 2_000_000_000L);
        assertThat(slo.judge(behind)).isEqualTo(Slo.Verdict.INVALID);
        assertThat(Validity.of(behind, slo).reason()).contains("served 500 of 1000 req/s offered");
        // on time and kept up: met
        assertThat(slo.judge(StepResult.of(1000, fast, 0, 1_001_000_000L))).isEqualTo(Slo.Verdict.MET);
    }

    @Test
    void servingSpecDefaultsAndChecks() throws BenchException {
        ServingSpec s = ServingSpec.of(Map.of("rate", "20"));
        assertThat(s.rate()).isEqualTo(20);
        assertThat(s.requests()).isEqualTo(1000);
        assertThat(s.arrivals()).isEqualTo(Arrivals.POISSON);
        assertThat(ServingSpec.of(Map.of("rate", "max", "slo", "p90<5ms")).requests()).isEqualTo(100);
        assertThat(ServingSpec.of(Map.of("rate", "max", "slo", "p90<5ms")).searchesRate()).isTrue();
        assertThat(ServingSpec.of(Map.of("rate", "15/s", "arrivals", "constant")).rate()).isEqualTo(15);
        assertThat(s.batches()).isFalse();
        // the warm-up: a tenth of the measured requests, or 0.2 s of arrivals, at most as many as measured
        assertThat(s.warmupRequests(20)).isEqualTo(100);
        assertThat(s.warmupRequests(2000)).isEqualTo(2000); // the step lasts 10 s: 20,000 measured
        assertThat(s.warmupRequests(100_000)).isEqualTo(100_000);
        // a step lasts at least stepSeconds: more requests at a high rate, the requests asked for at a low one
        assertThat(s.requestsAt(20)).isEqualTo(1000);
        assertThat(s.requestsAt(2000)).isEqualTo(20_000);
        ServingSpec quick = ServingSpec.of(Map.of("rate", "20", "stepSeconds", "0"));
        assertThat(quick.requestsAt(2000)).isEqualTo(1000);
        assertThat(quick.warmupRequests(2000)).isEqualTo(400);
        assertThat(quick.warmupRequests(100_000)).isEqualTo(1000);
        assertThatThrownBy(() -> ServingSpec.of(Map.of("rate", "20", "stepSeconds", "-1")))
                .hasMessage("stepSeconds '-1' is not a time of 0 to 3600 s; expected e.g. -p stepSeconds=10 (each"
                        + " measured step lasts at least that long; 0: just the requests)");
        assertThat(ServingSpec.of(Map.of("rate", "25000")).rate()).isEqualTo(25000); // run, and judged by validity
        assertThat(s.batching(8)).isEqualTo(OpenLoop.Batching.NONE); // each request a call at the cell's batch
        ServingSpec batching = ServingSpec.of(Map.of("rate", "20", "batchWaitMs", "2.5"));
        assertThat(batching.batches()).isTrue();
        assertThat(batching.batching(8)).isEqualTo(new OpenLoop.Batching(8, 2_500_000));
        assertThat(ServingSpec.of(Map.of("rate", "20", "batchWaitMs", "0")).batching(4))
                .isEqualTo(new OpenLoop.Batching(4, 0)); // only what is already waiting
        for (Map<String, String> bad : new Map[]{Map.of("rate", "0"), Map.of("rate", "-3"), Map.of("rate", "fast"),
                Map.of("rate", "2000000"), Map.of("rate", "max"), Map.of("rate", "5", "requests", "0"),
                Map.of("rate", "5", "slo", "p99<5ms", "requests", "999"), Map.of("rate", "5", "arrivals", "bursty"),
                Map.of("rate", "5", "batchWaitMs", "-1"), Map.of("rate", "5", "batchWaitMs", "soon"),
                Map.of("rate", "5", "batchWaitMs", "2", "idleMs", "100")}) {
            assertThatThrownBy(() -> ServingSpec.of(bad)).as(bad.toString()).isInstanceOf(BenchException.class);
        }
    }
}

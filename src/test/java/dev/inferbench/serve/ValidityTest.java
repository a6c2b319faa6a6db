package dev.inferbench.serve;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The validity rules on steps built by hand: late arrivals against a bound set by the SLO, and the served rate. */
class ValidityTest {

    private static StepResult step(int late, long delayNs, double served, double scheduled) {
        int n = 1000;
        long[] lat = new long[n];
        Arrays.fill(lat, 1_000_000);
        long[] delays = new long[n];
        Arrays.fill(delays, n - late, n, delayNs);
        // the requests served within the arrivals' window, at the served rate
        int inWindow = (int) Math.min(n, Math.round(n * served / scheduled));
        return new StepResult(scheduled, scheduled, lat, new long[n], delays, 0, 0, 0, (long) (n / served * 1e9), n, 0,
                List.of(), inWindow);
    }

    @Test
    void theLateBoundAndShareFollowTheSlo() throws Exception {
        assertThat(Validity.lateBoundNs(null)).isEqualTo(1_000_000);
        assertThat(Validity.lateBoundNs(new Slo(99, 1))).isEqualTo(100_000); // a tenth of a 1 ms bound
        assertThat(Validity.lateBoundNs(new Slo(99, 50))).isEqualTo(5_000_000); // scales with the bound
        assertThat(Validity.lateBoundNs(Slo.parse("p90<60ms"))).isEqualTo(6_000_000);
        assertThat(Validity.lateBoundNs(Slo.parse("ttft.p99<2s&tpot.p99<50ms"))).isEqualTo(200_000_000); // TTFT's
        assertThat(Validity.lateBoundNs(Slo.parse("tpot.p99<50ms&itl.p90<80ms"))).isEqualTo(Validity.NO_BOUND);
        assertThat(Validity.lateShareAllowed(new Slo(99, 1))).isEqualTo(0.005); // half the p99's tail
        assertThat(Validity.lateShareAllowed(new Slo(90, 1))).isEqualTo(0.05); // half the p90's tail
        assertThat(Validity.lateShareAllowed(null)).isEqualTo(0.01);
        // a TPOT term's tail is not the arrivals' concern
        assertThat(Validity.lateShareAllowed(Slo.parse("ttft.p90<2s&tpot.p99<50ms"))).isEqualTo(0.05);
    }

    @Test
    void tooManyLateArrivalsMakeTheStepInvalidWithItsReason() {
        Slo slo = new Slo(99, 1);
        Validity fine = Validity.of(step(5, 200_000, 1000, 1000), slo);
        assertThat(fine.valid()).as("0.5 % late is allowed at p99").isTrue();
        Validity late = Validity.of(step(6, 200_000, 1000, 1000), slo);
        assertThat(late.valid()).isFalse();
        assertThat(late.reason()).isEqualTo("0.6 % of arrivals issued over 0.1 ms late (at most 0.5 % allowed): the load"
                + " generator could not keep the schedule");
        // late by less than the bound: on time
        assertThat(Validity.of(step(500, 90_000, 1000, 1000), slo).valid()).isTrue();
        assertThat(slo.judge(step(6, 200_000, 1000, 1000))).isEqualTo(Slo.Verdict.INVALID);
    }

    /** An SLO on TPOT or ITL alone has no late rule: arrivals hours late leave the step valid. */
    @Test
    void tokenTimeTermsHaveNoLateRule() throws Exception {
        Validity v = Validity.of(step(1000, 3_600_000_000_000L, 1000, 1000), Slo.parse("tpot.p99<50ms"));
        assertThat(v.checksLateness()).isFalse();
        assertThat(v.valid()).isTrue();
    }

    @Test
    void aServedRateShortOfTheScheduledOneIsInvalid() {
        assertThat(Validity.of(step(0, 0, 951, 1000), null).valid()).isTrue();
        Validity behind = Validity.of(step(0, 0, 940, 1000), null);
        assertThat(behind.fellBehind()).isTrue();
        assertThat(behind.reason()).isEqualTo("served 940 of 1000 req/s offered (94 %, at least 95 % needed): the"
                + " callers fell behind");
        Validity both = Validity.of(step(100, 5_000_000, 500, 1000), null);
        assertThat(both.reason()).contains("10.0 % of arrivals issued over 1 ms late").contains("; served 500 of 1000");
    }
}

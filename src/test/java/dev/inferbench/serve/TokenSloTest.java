package dev.inferbench.serve;

import dev.inferbench.BenchException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * SLO terms on the token times of streamed responses (generation under load): how they are written, what each
 * measures (TTFT from the intended start, so the queue counts; TPOT; ITL pooled), that a step meets the SLO only when
 * every term is shown met and the step is valid, and that goodput counts a request only when it meets every term.
 */
class TokenSloTest {
    private static final long MS = 1_000_000;

    @Test
    void termsNameTheirMetricAndJoinWithAnAmpersand() throws BenchException {
        Slo slo = Slo.parse("ttft.p99<500ms&tpot.p99<50ms");
        assertThat(slo.terms()).containsExactly(new Slo.Term(Slo.Metric.TTFT, 99, 500),
                new Slo.Term(Slo.Metric.TPOT, 99, 50));
        assertThat(slo).hasToString("ttft.p99<500ms&tpot.p99<50ms");
        assertThat(slo.needsTokens()).isTrue();
        assertThat(Slo.parse("ITL.p90 <= 40ms; e2e.p50<2s").terms()).containsExactly(
                new Slo.Term(Slo.Metric.ITL, 90, 40), new Slo.Term(Slo.Metric.LATENCY, 50, 2000));
        assertThat(Slo.parse("p99<50ms")).isEqualTo(new Slo(99, 50)).hasToString("p99<50ms");
        assertThat(Slo.parse("p99<50ms").needsTokens()).isFalse();
        // an ITL term counts gaps, which a step has many more of than requests: it sets no request count
        assertThat(Slo.parse("ttft.p90<1s&itl.p99<5ms").requestsNeeded()).isEqualTo(100);
    }

    @Test
    void anUnknownMetricIsRefusedNamingTheOnesThereAre() {
        assertThatThrownBy(() -> Slo.parse("ttft.p99<500ms&ttfb.p99<500ms")).isInstanceOf(BenchException.class)
                .hasMessage("SLO term 'ttfb.p99<500ms' names an unknown metric 'ttfb'; expected one of: ttft, tpot,"
                        + " itl, e2e (or none: a request's latency, e.g. p99<50ms)");
        assertThatThrownBy(() -> Slo.parse("ttft.p99<500ms&")).isInstanceOf(BenchException.class)
                .hasMessageContaining("cannot be read at ''");
    }

    @Test
    void aTokenTermOnACellOfSingleCallsIsRefused() {
        Map<String, String> params = Map.of(ServingSpec.RATE, "10", ServingSpec.SLO, "ttft.p99<500ms");
        assertThatThrownBy(() -> ServingSpec.of(params)).isInstanceOf(BenchException.class)
                .hasMessage("SLO 'ttft.p99<500ms' bounds token times (ttft, tpot, itl), and this cell's requests are"
                        + " single calls without tokens; expected a latency SLO such as p99<50ms here, or a"
                        + " GenerationLoadBenchmark cell for ttft/tpot/itl");
    }

    @Test
    void theFiguresComeFromEachRequestsTokenTimes() {
        TokenTimes t = new TokenTimes(new long[]{100 * MS, 110 * MS, 130 * MS});
        assertThat(t.ttftNs()).isEqualTo(100 * MS);
        assertThat(t.tpotNs()).isEqualTo(15.0 * MS);
        assertThat(t.gapsNs()).containsExactly(10 * MS, 20 * MS);
        assertThat(new TokenTimes(new long[]{5}).tpotNs()).isNaN();
        StepResult s = step(List.of(t, new TokenTimes(new long[]{40 * MS, 41 * MS})), 1000);
        assertThat(s.sortedNs(Slo.Metric.TTFT)).containsExactly(40 * MS, 100 * MS);
        assertThat(s.sortedNs(Slo.Metric.TPOT)).containsExactly(1 * MS, 15 * MS);
        assertThat(s.sortedNs(Slo.Metric.ITL)).containsExactly(1 * MS, 10 * MS, 20 * MS);
        assertThat(s.outputTokensPerSecond()).isEqualTo(5.0); // 5 tokens in the step's 1 s
    }

    @Test
    void everyTermMustBeShownMetAndOneMissedTermMissesTheSlo() throws BenchException {
        // 100 requests: TTFT 10 ms, TPOT 2 ms each; then the TPOT of 30 of them 60 ms
        List<TokenTimes> fast = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            fast.add(new TokenTimes(new long[]{10 * MS, 12 * MS, 14 * MS}));
        }
        Slo slo = Slo.parse("ttft.p90<50ms&tpot.p90<5ms");
        assertThat(slo.judge(step(fast, 10_000))).isEqualTo(Slo.Verdict.MET);
        List<TokenTimes> slowDecode = new ArrayList<>(fast);
        for (int i = 0; i < 30; i++) {
            slowDecode.set(i, new TokenTimes(new long[]{10 * MS, 70 * MS, 130 * MS}));
        }
        assertThat(slo.judge(step(slowDecode, 10_000))).isEqualTo(Slo.Verdict.MISSED);
        assertThat(Slo.parse("ttft.p90<50ms").judge(step(slowDecode, 10_000))).isEqualTo(Slo.Verdict.MET);
    }

    @Test
    void goodputCountsOnlyRequestsMeetingEveryTerm() throws BenchException {
        // over 1 s: 4 requests meet both, 3 miss TTFT only, 2 miss TPOT only, 1 misses both
        List<TokenTimes> t = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            t.add(new TokenTimes(new long[]{10 * MS, 12 * MS}));
        }
        for (int i = 0; i < 3; i++) {
            t.add(new TokenTimes(new long[]{900 * MS, 902 * MS}));
        }
        for (int i = 0; i < 2; i++) {
            t.add(new TokenTimes(new long[]{10 * MS, 110 * MS}));
        }
        t.add(new TokenTimes(new long[]{900 * MS, 1000 * MS}));
        t.add(null); // dropped: meets nothing
        Slo slo = Slo.parse("ttft.p99<500ms&tpot.p99<50ms");
        assertThat(slo.goodputPerSecond(step(t, 1000))).isEqualTo(4.0);
        assertThat(Slo.parse("ttft.p99<500ms").goodputPerSecond(step(t, 1000))).isEqualTo(6.0);
        assertThat(Slo.parse("tpot.p99<50ms").goodputPerSecond(step(t, 1000))).isEqualTo(7.0);
        // a one-token response has no TPOT: it holds the TPOT term
        assertThat(slo.goodputPerSecond(step(List.of(new TokenTimes(new long[]{10 * MS})), 1000))).isEqualTo(1.0);
    }

    @Test
    void theLateBoundFollowsTheTermsTimedFromTheIntendedStart() throws BenchException {
        // TTFT counts from the intended start: a tenth of its bound; TPOT does not move with a late arrival
        assertThat(Validity.lateBoundNs(Slo.parse("ttft.p99<5ms&tpot.p99<1ms"))).isEqualTo(500_000);
        assertThat(Validity.lateBoundNs(Slo.parse("tpot.p99<1ms"))).isEqualTo(Validity.NO_BOUND);
        assertThat(Validity.lateShareAllowed(Slo.parse("ttft.p90<1s&tpot.p99<1s"))).isEqualTo(0.05);
        assertThat(Validity.lateShareAllowed(Slo.parse("ttft.p99<1s&tpot.p90<1s"))).isEqualTo(0.005);
    }

    @Test
    void aStepWhoseArrivalsRanLateIsInvalidAndMeetsNoTokenSlo() throws BenchException {
        // 1,000 fast requests; 8 arrivals (0.8 %) were issued 2 ms late: over half a p99's tail (0.5 %), under a p90's
        List<TokenTimes> fast = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            fast.add(new TokenTimes(new long[]{10 * MS, 12 * MS}));
        }
        long[] delays = new long[1000];
        Arrays.fill(delays, 992, 1000, 2 * MS);
        StepResult late = new StepResult(100, 100, new long[1000], new long[1000], delays, 0, 0, 0, 10_000 * MS, 1000, 0,
                fast, 1000);
        Slo p99 = Slo.parse("ttft.p99<15ms&tpot.p99<50ms"); // late past 1.5 ms
        assertThat(Validity.of(late, p99).tooLate()).isTrue();
        assertThat(p99.judge(late)).isEqualTo(Slo.Verdict.INVALID);
        assertThat(Slo.parse("ttft.p90<15ms&tpot.p90<50ms").judge(late)).isEqualTo(Slo.Verdict.MET);
        // the same delays under a TTFT bound of 500 ms: late only past 50 ms, so 2 ms is on time
        assertThat(Slo.parse("ttft.p99<500ms&tpot.p99<50ms").judge(late)).isEqualTo(Slo.Verdict.MET);
        assertThat(Slo.parse("ttft.p90<10ms").judge(late)).isEqualTo(Slo.Verdict.MET);
        Arrays.fill(delays, 900, 1000, 2 * MS); // 10 %
        assertThat(Slo.parse("ttft.p90<10ms").judge(late)).isEqualTo(Slo.Verdict.INVALID);
    }

    @Test
    void aStreamedStepKeepsEachTokensTimeFromTheIntendedStartQueueIncluded() throws Exception {
        // 20 requests at once (10,000 req/s); one caller serves one request at a time, 3 tokens 2 ms apart: the last
        // request's first token comes after the 19 before it, ~19 x 4 ms from its intended start, not 0 ms
        OpenLoop.Serve threeTokens = (ids, done) -> {
            long[][] times = new long[ids.length][3];
            for (int t = 0; t < 3; t++) {
                Thread.sleep(2);
                for (long[] r : times) {
                    r[t] = System.nanoTime();
                }
            }
            return times;
        };
        StepResult r = OpenLoop.serve(List.of(threeTokens), OpenLoop.Batching.NONE,
                Arrivals.CONSTANT.schedule(10_000, 20, 1), 0, 10_000, 5_000_000_000L);
        assertThat(r.streamed()).isTrue();
        assertThat(r.tokens()).hasSize(20).doesNotContainNull();
        long[] ttft = r.sortedNs(Slo.Metric.TTFT);
        assertThat(ttft[19]).isGreaterThan(19 * 6 * MS - 2 * MS);
        assertThat(r.sortedNs(Slo.Metric.TPOT)[0]).isGreaterThanOrEqualTo(2 * MS);
        // each request ends at its last token: the latency is the last token's time
        assertThat(r.latenciesNs()[19]).isEqualTo(Arrays.stream(r.tokens().toArray(TokenTimes[]::new))
                .mapToLong(TokenTimes::endToEndNs).max().orElseThrow());
        assertThat(Validity.of(r, null).fellBehind()).isTrue(); // 10,000 req/s offered, ~160 served
        assertThat(Slo.parse("ttft.p50<10s&tpot.p50<10s").judge(r)).isEqualTo(Slo.Verdict.INVALID);
    }

    @Test
    void aStaticBatchServesWhatIsWaitingTogetherAndEachRequestEndsAtItsOwnLastToken() throws Exception {
        // requests 0..5 due at once; a batch runs until its longest; request i has i + 1 tokens
        AtomicInteger batches = new AtomicInteger();
        OpenLoop.Serve batch = (ids, done) -> {
            batches.incrementAndGet();
            int longest = Arrays.stream(ids).max().orElseThrow() + 1;
            long[][] times = new long[ids.length][];
            for (int s = 0; s < ids.length; s++) {
                times[s] = new long[ids[s] + 1];
            }
            for (int t = 0; t < longest; t++) {
                Thread.sleep(1);
                long now = System.nanoTime();
                for (long[] r : times) {
                    if (t < r.length) {
                        r[t] = now;
                    }
                }
            }
            return times;
        };
        // the batch closes at its sixth request; the wait (500 ms) only keeps a stall of the arrivals' thread on a
        // loaded machine from splitting the six in two
        StepResult r = OpenLoop.serve(List.of(batch), new OpenLoop.Batching(6, 500 * MS),
                Arrivals.CONSTANT.schedule(100_000, 6, 1), 0, 100_000, 5_000_000_000L);
        assertThat(batches.get()).isEqualTo(1);
        assertThat(r.tokens().stream().mapToInt(TokenTimes::tokens)).containsExactly(1, 2, 3, 4, 5, 6);
        // one TTFT for all (the prefill's), ends one step apart
        assertThat(r.sortedNs(Slo.Metric.TTFT)[5] - r.sortedNs(Slo.Metric.TTFT)[0]).isLessThan(MS);
        assertThat(r.latenciesNs()[5] - r.latenciesNs()[0]).isGreaterThanOrEqualTo(5 * MS - 100_000);
    }

    /** A valid step over {@code servingMs}: arrivals on time, served at the rate offered. */
    private static StepResult step(List<TokenTimes> tokens, long servingMs) {
        int n = tokens.size();
        long[] latencies = tokens.stream().mapToLong(t -> t == null ? 10_000 * MS : t.endToEndNs()).sorted().toArray();
        int dropped = (int) tokens.stream().filter(t -> t == null).count();
        double rate = n / (servingMs / 1e3);
        return new StepResult(rate, rate, latencies, new long[n], new long[n], dropped, 0, 0, servingMs * MS, n, 0,
                tokens, n - dropped);
    }
}

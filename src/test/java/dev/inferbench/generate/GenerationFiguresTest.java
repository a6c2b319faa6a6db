package dev.inferbench.generate;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The field's definitions on hand-made clock readings (ms written as ns). */
class GenerationFiguresTest {
    private static final long MS = 1_000_000;

    /** A request starting at 0 whose tokens come at the given ms. */
    private static RequestTimes request(int batch, int promptLen, long cacheBytes, long... tokenMs) {
        long[] ns = new long[tokenMs.length];
        for (int i = 0; i < ns.length; i++) {
            ns[i] = tokenMs[i] * MS;
        }
        return new RequestTimes(0, ns, batch, promptLen, cacheBytes);
    }

    @Test
    void theTokenChoiceTimePerOutputToken() {
        long[] ns = {100 * MS, 110 * MS, 130 * MS, 160 * MS};
        // 8 ms of choosing over 4 tokens, and another request with 4 ms: 2 and 1 ms per token, mean 1.5
        Map<String, Double> f = GenerationFigures.of(List.of(new RequestTimes(0, ns, 1, 10, 0, 8 * MS),
                new RequestTimes(0, ns, 1, 10, 0, 4 * MS)));
        assertThat(f.get(GenerationFigures.CHOICE)).isCloseTo(1.5, within(1e-9));
        assertThat(GenerationFigures.UNITS.get(GenerationFigures.CHOICE)).isEqualTo("ms");
        // a request whose choice was not timed: no figure rather than a zero
        assertThat(GenerationFigures.of(List.of(request(1, 10, 0, 100, 110)))).doesNotContainKey(GenerationFigures.CHOICE);
    }

    @Test
    void oneRequest() {
        // prompt 10, 4 output tokens at 100, 110, 130, 160 ms: TTFT 100, TPOT (160 - 100) / 3 = 20, gaps 10, 20, 30
        RequestTimes r = request(2, 10, 2 * 13 * 64, 100, 110, 130, 160);
        assertThat(r.ttftMs()).isEqualTo(100);
        assertThat(r.tpotMs()).isEqualTo(20);
        assertThat(r.itlMs()).containsExactly(10, 20, 30);
        assertThat(r.cacheBytesPerToken()).isEqualTo(64); // 2 sequences x (10 + 4 - 1) tokens in the cache
        Map<String, Double> f = GenerationFigures.of(List.of(r));
        assertThat(f.get(GenerationFigures.TTFT)).isEqualTo(100);
        assertThat(f.get(GenerationFigures.TPOT)).isEqualTo(20);
        assertThat(f.get(GenerationFigures.E2E)).isEqualTo(160);
        assertThat(f.get(GenerationFigures.OUTPUT_TOKENS)).isCloseTo(2 * 4 / 0.160, within(1e-9));
        assertThat(f.get(GenerationFigures.TOTAL_TOKENS)).isCloseTo(2 * 14 / 0.160, within(1e-9));
        assertThat(f.get(GenerationFigures.PREFILL_SHARE)).isCloseTo(62.5, within(1e-9));
        assertThat(f.get(GenerationFigures.DECODE_SHARE)).isCloseTo(37.5, within(1e-9));
        // three gaps are too few for any percentile: n/a, not the largest gap under another name
        assertThat(f).doesNotContainKeys(GenerationFigures.itl(50), GenerationFigures.itl(90));
    }

    @Test
    void itlPercentilesPoolEveryGapOnceThereAreEnough() {
        long[] tokens = new long[101]; // 100 gaps: 1 ms, 2 ms ... 100 ms
        for (int i = 1; i < tokens.length; i++) {
            tokens[i] = tokens[i - 1] + i;
        }
        Map<String, Double> f = GenerationFigures.of(List.of(request(1, 1, 8, tokens)));
        assertThat(f.get(GenerationFigures.itl(50))).isEqualTo(50);
        assertThat(f.get(GenerationFigures.itl(90))).isEqualTo(90);
        assertThat(f).doesNotContainKey(GenerationFigures.itl(99)); // needs 1,000 gaps
    }

    @Test
    void ttftAndTpotPercentilesAreOverTheRequestsOnceThereAreEnough() {
        // 100 requests: the i-th's first token at i ms, then one more token 2 i ms later (TPOT 2 i)
        List<RequestTimes> requests = new java.util.ArrayList<>();
        for (int i = 100; i >= 1; i--) {
            requests.add(request(1, 4, 8, i, 3L * i));
        }
        Map<String, Double> f = GenerationFigures.of(requests);
        assertThat(f.get(GenerationFigures.percentile(GenerationFigures.TTFT, 50))).isEqualTo(50);
        assertThat(f.get(GenerationFigures.percentile(GenerationFigures.TTFT, 90))).isEqualTo(90);
        assertThat(f.get(GenerationFigures.percentile(GenerationFigures.TPOT, 90))).isEqualTo(180);
        assertThat(f.get(GenerationFigures.TTFT)).isEqualTo(50.5); // the mean stays beside them
        // 100 requests are too few for a p99: it would be the second largest, named as a tail
        assertThat(f).doesNotContainKeys(GenerationFigures.percentile(GenerationFigures.TTFT, 99),
                GenerationFigures.percentile(GenerationFigures.TPOT, 99));
        assertThat(GenerationFigures.UNITS.get(GenerationFigures.percentile(GenerationFigures.TPOT, 99))).isEqualTo("ms");
    }

    @Test
    void aSingleOutputTokenHasNoTpot() {
        Map<String, Double> f = GenerationFigures.of(List.of(request(1, 5, 40, 30)));
        assertThat(f).containsEntry(GenerationFigures.TTFT, 30.0).doesNotContainKey(GenerationFigures.TPOT);
        assertThat(f.get(GenerationFigures.PREFILL_SHARE)).isEqualTo(100);
    }
}

package dev.inferbench.generate;

import dev.inferbench.stats.Percentiles;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The figures of a set of generation requests (one iteration's), by metric name; each value with its unit in
 * {@link #UNITS}. Means over requests for TTFT, TPOT and end-to-end latency, and TTFT's and TPOT's percentiles over
 * the requests; ITL percentiles pooled over every gap
 * of every request, each only when enough gaps lie behind it ({@link dev.inferbench.stats.Percentiles#callsFor});
 * tokens/s as all tokens over all request time (one caller: the requests ran back to back).
 */
public final class GenerationFigures {
    public static final String PREFIX = "gen.";
    public static final String TTFT = "gen.ttft";
    public static final String TPOT = "gen.tpot";
    public static final String E2E = "gen.e2e";
    public static final String OUTPUT_TOKENS = "gen.tokens.output";
    public static final String TOTAL_TOKENS = "gen.tokens.total";
    public static final String KV_BYTES = "gen.kv.token";
    public static final String PREFILL_SHARE = "gen.prefill.share";
    public static final String DECODE_SHARE = "gen.decode.share";
    /** The token choice's time per output token (the argmax, or sampling), part of TPOT and TTFT. */
    public static final String CHOICE = "gen.choice";
    public static final double[] ITL_PERCENTILES = {50, 90, 99};
    /** TTFT's and TPOT's percentiles over the requests: the tail users gate on, beside the means. */
    public static final double[] TOKEN_PERCENTILES = {50, 90, 99};
    /** The drawn lengths' percentiles over the iteration's sequences (max: their largest). */
    public static final double[] LENGTH_PERCENTILES = {50, 90};
    /** Prompt tokens per sequence, as drawn (a file's prompts as encoded; padding not counted). */
    public static final String PROMPT = "gen.prompt";
    /** Output tokens per sequence, as generated (up to and with its end-of-sequence token). */
    public static final String OUTPUT = "gen.output";
    public static final Map<String, String> UNITS = units();

    private GenerationFigures() {
    }

    /** gen.itl.p50 */
    public static String itl(double p) {
        return PREFIX + "itl.p" + (long) p;
    }

    /** gen.ttft.p99, gen.tpot.p99: a percentile of {@code mean} (TTFT or TPOT) over the requests. */
    public static String percentile(String mean, double p) {
        return mean + ".p" + (long) p;
    }

    public static Map<String, Double> of(List<RequestTimes> requests) {
        Map<String, Double> out = new LinkedHashMap<>();
        if (requests.isEmpty()) {
            return out;
        }
        double ttft = requests.stream().mapToDouble(RequestTimes::ttftMs).average().orElseThrow();
        double e2e = requests.stream().mapToDouble(RequestTimes::endToEndMs).average().orElseThrow();
        out.put(TTFT, ttft);
        double tpot = requests.stream().mapToDouble(RequestTimes::tpotMs).average().orElseThrow();
        if (!Double.isNaN(tpot)) {
            out.put(TPOT, tpot);
        }
        double[] ttfts = requests.stream().mapToDouble(RequestTimes::ttftMs).sorted().toArray();
        double[] tpots = requests.stream().mapToDouble(RequestTimes::tpotMs).filter(t -> !Double.isNaN(t)).sorted()
                .toArray();
        for (double p : TOKEN_PERCENTILES) {
            putKnown(out, percentile(TTFT, p), Percentiles.nearestRank(ttfts, p));
            putKnown(out, percentile(TPOT, p), Percentiles.nearestRank(tpots, p));
        }
        double[] gaps = requests.stream().flatMapToDouble(r -> Arrays.stream(r.itlMs())).sorted().toArray();
        for (double p : ITL_PERCENTILES) {
            putKnown(out, itl(p), Percentiles.nearestRank(gaps, p));
        }
        out.put(E2E, e2e);
        double seconds = requests.stream().mapToDouble(RequestTimes::endToEndMs).sum() / 1e3;
        long outTokens = requests.stream().mapToLong(RequestTimes::outputTokenCount).sum();
        long allTokens = requests.stream().mapToLong(RequestTimes::totalTokenCount).sum();
        out.put(OUTPUT_TOKENS, outTokens / seconds);
        out.put(TOTAL_TOKENS, allTokens / seconds);
        out.put(KV_BYTES, requests.stream().mapToDouble(RequestTimes::cacheBytesPerToken).average().orElseThrow());
        double choice = requests.stream().mapToDouble(RequestTimes::chooseMsPerToken).average().orElseThrow();
        putKnown(out, CHOICE, choice);
        out.put(PREFILL_SHARE, 100 * ttft / e2e);
        out.put(DECODE_SHARE, 100 * (e2e - ttft) / e2e);
        out.putAll(lengths(requests.stream().flatMapToInt(r -> Arrays.stream(r.promptTokens())).toArray(),
                requests.stream().flatMapToInt(r -> Arrays.stream(r.outputTokens())).toArray()));
        return out;
    }

    /** gen.prompt.p50, gen.output.max */
    public static String length(String kind, double p) {
        return kind + (p >= 100 ? ".max" : ".p" + (long) p);
    }

    /**
     * The distributions of prompt and output tokens per sequence: p50 and p90 (each only with as many sequences behind
     * it as a percentile needs, {@link Percentiles#callsFor}) and the largest.
     */
    public static Map<String, Double> lengths(int[] prompt, int[] output) {
        Map<String, Double> out = new LinkedHashMap<>();
        putLengths(out, PROMPT, prompt);
        putLengths(out, OUTPUT, output);
        return out;
    }

    private static void putLengths(Map<String, Double> out, String kind, int[] values) {
        if (values.length == 0) {
            return;
        }
        double[] sorted = Arrays.stream(values).asDoubleStream().sorted().toArray();
        for (double p : LENGTH_PERCENTILES) {
            putKnown(out, length(kind, p), Percentiles.nearestRank(sorted, p));
        }
        out.put(length(kind, 100), sorted[sorted.length - 1]);
    }

    /** A percentile with too few values behind it is left out, not shown as the largest value. */
    private static void putKnown(Map<String, Double> out, String name, double value) {
        if (!Double.isNaN(value)) {
            out.put(name, value);
        }
    }

    private static Map<String, String> units() {
        Map<String, String> u = new LinkedHashMap<>();
        u.put(TTFT, "ms");
        u.put(TPOT, "ms");
        for (double p : TOKEN_PERCENTILES) {
            u.put(percentile(TTFT, p), "ms");
            u.put(percentile(TPOT, p), "ms");
        }
        for (double p : ITL_PERCENTILES) {
            u.put(itl(p), "ms");
        }
        u.put(E2E, "ms");
        u.put(OUTPUT_TOKENS, "tokens/s");
        u.put(TOTAL_TOKENS, "tokens/s");
        u.put(KV_BYTES, "B/token");
        u.put(CHOICE, "ms");
        u.put(PREFILL_SHARE, "%");
        u.put(DECODE_SHARE, "%");
        for (String kind : List.of(PROMPT, OUTPUT)) {
            for (double p : LENGTH_PERCENTILES) {
                u.put(length(kind, p), "tokens");
            }
            u.put(length(kind, 100), "tokens");
        }
        return Map.copyOf(u);
    }
}

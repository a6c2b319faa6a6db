package dev.inferbench.generate;

import dev.inferbench.serve.TokenTimes;

/**
 * The clock readings of one generation request: its start and the moment each output token was known (the same
 * moment for every sequence of the batch). The figures are {@link TokenTimes}'s, the one place they are defined
 * (vLLM's benchmark_serving, GenAI-Perf): TTFT from the start to the first token (the prefill's, whose last position
 * gives it), TPOT = (end-to-end - TTFT) / (tokens - 1), ITL each gap between consecutive tokens.
 *
 * @param tokenNanos {@code System.nanoTime()} at each output token, in order
 * @param cacheBytes  the cache's bytes after the request, all sequences and layers
 * @param chooseNanos the time spent choosing tokens from logits (greedy or sampling), inside the steps; -1 when not
 *                    timed
 */
public record RequestTimes(long startNanos, long[] tokenNanos, int batch, int promptLen, long cacheBytes,
                           long chooseNanos) {

    public RequestTimes(long startNanos, long[] tokenNanos, int batch, int promptLen, long cacheBytes) {
        this(startNanos, tokenNanos, batch, promptLen, cacheBytes, -1);
    }

    /** The token choice's time per output token (each choice serves the whole batch), ms; NaN when not timed. */
    public double chooseMsPerToken() {
        return chooseNanos < 0 ? Double.NaN : chooseNanos / 1e6 / tokenNanos.length;
    }

    public int outputLen() {
        return tokenNanos.length;
    }

    private TokenTimes times() {
        return TokenTimes.since(startNanos, tokenNanos);
    }

    public double ttftMs() {
        return times().ttftNs() / 1e6;
    }

    public double endToEndMs() {
        return times().endToEndNs() / 1e6;
    }

    /** NaN for a single output token: there is no time per further token. */
    public double tpotMs() {
        return times().tpotNs() / 1e6;
    }

    /** The gaps between consecutive tokens, ms. */
    public double[] itlMs() {
        return java.util.Arrays.stream(times().gapsNs()).mapToDouble(g -> g / 1e6).toArray();
    }

    /** Cache bytes per token of one sequence: what the request left, over the tokens it holds. */
    public double cacheBytesPerToken() {
        long tokens = (long) batch * (promptLen + tokenNanos.length - 1);
        return (double) cacheBytes / tokens;
    }
}

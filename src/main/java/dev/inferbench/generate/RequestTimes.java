package dev.inferbench.generate;

import dev.inferbench.serve.TokenTimes;

import java.util.Arrays;

/**
 * The clock readings of one generation request: its start and the moment each output token was known (the same
 * moment for every sequence of the batch). The figures are {@link TokenTimes}'s, the one place they are defined
 * (vLLM's benchmark_serving, GenAI-Perf): TTFT from the start to the first token (the prefill's, whose last position
 * gives it), TPOT = (end-to-end - TTFT) / (tokens - 1), ITL each gap between consecutive tokens.
 *
 * @param tokenNanos   {@code System.nanoTime()} at each step's tokens, in order: as many steps as the longest sequence's
 *                     output
 * @param promptLen    the prefill's width: the longest prompt of the batch, the others left-padded to it
 * @param cacheBytes   the cache's bytes after the request, all sequences and layers
 * @param chooseNanos  the time spent choosing tokens from logits (greedy or sampling), inside the steps; -1 when not
 *                     timed
 * @param promptTokens each sequence's own prompt tokens (no padding)
 * @param outputTokens each sequence's output tokens (up to and with its end-of-sequence token)
 */
public record RequestTimes(long startNanos, long[] tokenNanos, int batch, int promptLen, long cacheBytes,
                           long chooseNanos, int[] promptTokens, int[] outputTokens) {

    public RequestTimes(long startNanos, long[] tokenNanos, int batch, int promptLen, long cacheBytes) {
        this(startNanos, tokenNanos, batch, promptLen, cacheBytes, -1);
    }

    /** Every sequence of the batch with {@code promptLen} prompt tokens and one output token per step. */
    public RequestTimes(long startNanos, long[] tokenNanos, int batch, int promptLen, long cacheBytes,
                        long chooseNanos) {
        this(startNanos, tokenNanos, batch, promptLen, cacheBytes, chooseNanos, filled(batch, promptLen),
                filled(batch, tokenNanos.length));
    }

    private static int[] filled(int n, int value) {
        int[] a = new int[n];
        Arrays.fill(a, value);
        return a;
    }

    /** The token choice's time per output token (each choice serves the whole batch), ms; NaN when not timed. */
    public double chooseMsPerToken() {
        return chooseNanos < 0 ? Double.NaN : chooseNanos / 1e6 / tokenNanos.length;
    }

    /** The steps the request ran: the longest sequence's output tokens. */
    public int outputLen() {
        return tokenNanos.length;
    }

    /** Output tokens of all sequences. */
    public long outputTokenCount() {
        return Arrays.stream(outputTokens).asLongStream().sum();
    }

    /** Prompt and output tokens of all sequences, padding not counted. */
    public long totalTokenCount() {
        return outputTokenCount() + Arrays.stream(promptTokens).asLongStream().sum();
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

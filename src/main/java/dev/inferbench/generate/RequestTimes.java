package dev.inferbench.generate;

/**
 * The clock readings of one generation request: its start and the moment each output token was known (the same
 * moment for every sequence of the batch). The figures follow vLLM's benchmark_serving and GenAI-Perf: TTFT from the
 * start to the first token (the prefill's, whose last position gives it), TPOT = (end-to-end - TTFT) /
 * (tokens - 1), ITL each gap between consecutive tokens.
 *
 * @param tokenNanos {@code System.nanoTime()} at each output token, in order
 * @param cacheBytes the cache's bytes after the request, all sequences and layers
 */
public record RequestTimes(long startNanos, long[] tokenNanos, int batch, int promptLen, long cacheBytes) {

    public int outputLen() {
        return tokenNanos.length;
    }

    public double ttftMs() {
        return (tokenNanos[0] - startNanos) / 1e6;
    }

    public double endToEndMs() {
        return (tokenNanos[tokenNanos.length - 1] - startNanos) / 1e6;
    }

    /** NaN for a single output token: there is no time per further token. */
    public double tpotMs() {
        return tokenNanos.length < 2 ? Double.NaN : (endToEndMs() - ttftMs()) / (tokenNanos.length - 1);
    }

    /** The gaps between consecutive tokens, ms. */
    public double[] itlMs() {
        double[] gaps = new double[tokenNanos.length - 1];
        for (int i = 0; i < gaps.length; i++) {
            gaps[i] = (tokenNanos[i + 1] - tokenNanos[i]) / 1e6;
        }
        return gaps;
    }

    /** Cache bytes per token of one sequence: what the request left, over the tokens it holds. */
    public double cacheBytesPerToken() {
        long tokens = (long) batch * (promptLen + tokenNanos.length - 1);
        return (double) cacheBytes / tokens;
    }
}

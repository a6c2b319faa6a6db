package dev.inferbench.serve;

/**
 * When each output token of one streamed response was known, in ns after the request's start: for a request under
 * load its intended start (its arrival in the schedule), so time spent queued counts. The field's definitions (vLLM's
 * benchmark_serving, GenAI-Perf, MLPerf Inference LLM; docs/generation.md), written once here: TTFT = start to first
 * token; TPOT = (end-to-end - TTFT) / (tokens - 1); ITL = each gap between consecutive tokens.
 *
 * @param atNs ns after the start at which each token was known, in order; at least one
 */
public record TokenTimes(long[] atNs) {
    public TokenTimes {
        if (atNs.length == 0) {
            throw new IllegalArgumentException("a response of no tokens has no token times");
        }
    }

    /** The times of tokens read as {@code System.nanoTime()} values, against a start read the same way. */
    public static TokenTimes since(long startNanos, long[] tokenNanos) {
        long[] at = new long[tokenNanos.length];
        for (int i = 0; i < at.length; i++) {
            at[i] = tokenNanos[i] - startNanos;
        }
        return new TokenTimes(at);
    }

    public int tokens() {
        return atNs.length;
    }

    public long ttftNs() {
        return atNs[0];
    }

    public long endToEndNs() {
        return atNs[atNs.length - 1];
    }

    /** NaN for a single token: there is no time per further token. */
    public double tpotNs() {
        return atNs.length < 2 ? Double.NaN : (endToEndNs() - ttftNs()) / (double) (atNs.length - 1);
    }

    /** The gaps between consecutive tokens, ns (none for a single token). */
    public long[] gapsNs() {
        long[] gaps = new long[atNs.length - 1];
        for (int i = 0; i < gaps.length; i++) {
            gaps[i] = atNs[i + 1] - atNs[i];
        }
        return gaps;
    }
}

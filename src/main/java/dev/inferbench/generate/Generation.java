package dev.inferbench.generate;

import dev.inferbench.BenchException;
import dev.inferbench.engine.DecodeState;

/**
 * One generation request: the prompt in one forward call (the prefill, whose last position gives the first token),
 * then each further token from a call over the previous one with the cache, chosen by the state's token choice
 * (greedy, or a {@link Sampler}, restarted from its seed at each request and timed). The clock is read after each
 * token is known; nothing else happens between the calls than feeding the tokens back.
 */
public final class Generation {
    private final DecodeState state;
    private final int batch;
    private final long[] prompt;
    private final GenerationSpec spec;
    private final long[] next;
    /** The tokens of the latest request, sequence by sequence, for checks outside the timed calls. */
    private final long[] output;
    private final Sampler sampler;

    /** A greedy request whose choice is not timed. */
    public Generation(DecodeState state, int batch, long[] prompt, GenerationSpec spec) {
        this(state, batch, prompt, spec, null);
    }

    /**
     * @param prompt  {@code batch * promptLen} token ids, sequence by sequence
     * @param sampler the token choice {@code state} was begun with, or null (then no choice time is known)
     */
    public Generation(DecodeState state, int batch, long[] prompt, GenerationSpec spec, Sampler sampler) {
        if (prompt.length != batch * spec.promptLen()) {
            throw new IllegalArgumentException("prompt of " + prompt.length + " ids for " + batch + " x "
                    + spec.promptLen());
        }
        this.state = state;
        this.batch = batch;
        this.prompt = prompt.clone();
        this.spec = spec;
        this.next = new long[batch];
        this.output = new long[batch * spec.outputLen()];
        this.sampler = sampler;
    }

    public RequestTimes request() throws BenchException {
        long[] tokenNanos = new long[spec.outputLen()];
        if (sampler != null) {
            sampler.restart();
        }
        long start = System.nanoTime();
        state.reset();
        state.step(prompt, spec.promptLen(), next);
        tokenNanos[0] = System.nanoTime();
        keep(0);
        for (int t = 1; t < spec.outputLen(); t++) {
            state.step(next, 1, next);
            tokenNanos[t] = System.nanoTime();
            keep(t);
        }
        return new RequestTimes(start, tokenNanos, batch, spec.promptLen(), state.cacheBytes(),
                sampler == null ? -1 : sampler.nanos());
    }

    private void keep(int t) {
        for (int s = 0; s < batch; s++) {
            output[s * spec.outputLen() + t] = next[s];
        }
    }

    /** The latest request's output tokens, {@code batch * outputLen}, sequence by sequence. */
    public long[] output() {
        return output.clone();
    }
}

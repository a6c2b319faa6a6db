package dev.inferbench.generate;

import dev.inferbench.BenchException;
import dev.inferbench.engine.DecodeState;
import dev.inferbench.tail.SlowCalls;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One generation request: the prompt in one forward call (the prefill, whose last position gives the first token),
 * then each further token from a call over the previous one with the cache, chosen by the state's token choice
 * (greedy, or a {@link Sampler}, restarted from its seed at each request and timed). The clock is read after each
 * token is known; nothing else happens between the calls than feeding the tokens back.
 * <p>
 * With a prompt file ({@link Prompts}), request k takes the file's prompts k x batch to k x batch + batch - 1 (modulo
 * their count, in the file's order), left-padded to the longest of them ({@link DecodeState#pad}); a sequence stops at
 * its first end-of-sequence token (counted as an output token) or at outputLen, and the request ends when every
 * sequence has stopped. A stopped sequence's row runs on with the others, as static batching runs it.
 * <p>
 * With {@code --tail} ({@link #recordTokens}) each cached step, from one token's time to the next's (an inter-token
 * latency), is a call of the caller's slow-call record; the prefill is not, its time being of another kind (TTFT).
 */
public final class Generation {
    private final DecodeState state;
    private final int batch;
    private final int outputLen;
    /** The request's batches, in turn: each one's padded ids, its padding and each sequence's own prompt length. */
    private final List<Batch> batches;
    private final Prompts stop;
    private int turn;
    private final long[] next;
    /** The tokens of the latest request, sequence by sequence, for checks outside the timed calls. */
    private final long[] output;
    private final Sampler sampler;
    /** The caller's slow-call record for the cached steps ({@code --tail}); off by default. */
    private SlowCalls tokens = SlowCalls.off();

    private record Batch(long[] ids, int width, int[] pad, int[] prompt) {
    }

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
        int[] lengths = new int[batch];
        Arrays.fill(lengths, spec.promptLen());
        this.state = state;
        this.batch = batch;
        this.outputLen = spec.outputLen();
        this.batches = List.of(new Batch(prompt.clone(), spec.promptLen(), null, lengths));
        this.stop = null;
        this.next = new long[batch];
        this.output = new long[batch * outputLen];
        this.sampler = sampler;
    }

    /**
     * Requests over a prompt file's prompts, {@code batch} at a time in the file's order, each sequence stopping at an
     * end-of-sequence token of {@code prompts} or at {@code outputLen}.
     */
    public Generation(DecodeState state, int batch, Prompts prompts, int outputLen, Sampler sampler) {
        this.state = state;
        this.batch = batch;
        this.outputLen = outputLen;
        this.stop = prompts.stop().length == 0 ? null : prompts;
        this.next = new long[batch];
        this.output = new long[batch * outputLen];
        this.sampler = sampler;
        // request k starts at prompt k * batch mod n: the turns repeat after n / gcd(n, batch) requests
        int n = prompts.size();
        int turns = n / gcd(n, batch);
        List<Batch> all = new ArrayList<>();
        for (int k = 0; k < turns; k++) {
            long[][] seqs = new long[batch][];
            for (int s = 0; s < batch; s++) {
                seqs[s] = prompts.ids().get((int) (((long) k * batch + s) % n));
            }
            all.add(padded(seqs));
        }
        this.batches = List.copyOf(all);
    }

    /** Records each cached step of the requests to come in {@code record}: {@code --tail}'s per-token tail. */
    public void recordTokens(SlowCalls record) {
        this.tokens = record;
    }

    private static Batch padded(long[][] seqs) {
        int width = Arrays.stream(seqs).mapToInt(p -> p.length).max().orElseThrow();
        long[] ids = new long[seqs.length * width]; // padding ids are 0, masked out
        int[] pad = new int[seqs.length];
        int[] lengths = new int[seqs.length];
        for (int s = 0; s < seqs.length; s++) {
            pad[s] = width - seqs[s].length;
            lengths[s] = seqs[s].length;
            System.arraycopy(seqs[s], 0, ids, s * width + pad[s], seqs[s].length);
        }
        return new Batch(ids, width, Arrays.stream(pad).anyMatch(x -> x > 0) ? pad : null, lengths);
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    public RequestTimes request() throws BenchException {
        Batch b = batches.get(turn);
        turn = (turn + 1) % batches.size();
        long[] tokenNanos = new long[outputLen];
        int[] produced = new int[batch];
        boolean[] done = new boolean[batch];
        Arrays.fill(output, 0);
        if (sampler != null) {
            sampler.restart();
        }
        long start = System.nanoTime();
        state.reset();
        if (b.pad() != null) {
            state.pad(b.pad());
        }
        state.step(b.ids(), b.width(), next);
        tokenNanos[0] = System.nanoTime();
        boolean running = keep(0, produced, done);
        int steps = 1;
        while (running && steps < outputLen) {
            state.step(next, 1, next);
            tokenNanos[steps] = System.nanoTime();
            tokens.ended(tokenNanos[steps - 1], tokenNanos[steps]);
            running = keep(steps, produced, done);
            steps++;
        }
        return new RequestTimes(start, steps == outputLen ? tokenNanos : Arrays.copyOf(tokenNanos, steps), batch,
                b.width(), state.cacheBytes(), sampler == null ? -1 : sampler.nanos(), b.prompt().clone(), produced);
    }

    /** Keeps step t's tokens of the sequences still running; whether any still runs. */
    private boolean keep(int t, int[] produced, boolean[] done) {
        boolean running = false;
        for (int s = 0; s < batch; s++) {
            if (!done[s]) {
                output[s * outputLen + t] = next[s];
                produced[s] = t + 1;
                done[s] = stop != null && stop.stops(next[s]);
                running |= !done[s];
            }
        }
        return running;
    }

    /**
     * The latest request's output tokens, {@code batch * outputLen}, sequence by sequence; 0 after a sequence's
     * end-of-sequence token.
     */
    public long[] output() {
        return output.clone();
    }
}

package dev.inferbench.generate;

import dev.inferbench.BenchException;
import dev.inferbench.engine.DecodeState;
import dev.inferbench.engine.Decoder;
import dev.inferbench.engine.TokenChoice;
import dev.inferbench.serve.OpenLoop;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One caller of generation under load, with static batching: the requests it took from the queue together (those
 * waiting, up to the batch size) run as one batch from one prefill to the last token of the longest. Prompts of
 * different lengths are left-padded to the longest ({@link DecodeState#pad}: masked, and not counted in positions), so
 * each sequence gets the tokens it would get alone; a request whose output is complete is done, its last token's time
 * its end, while the batch runs on for the others. That idle row, and a request that arrives while a batch runs
 * waiting for all of it, are what static batching costs. The clock is read as each step's tokens are known. With
 * end-of-sequence ids (a prompt file's model), a request is also done at its first end-of-sequence token, and the batch
 * ends when every request in it is done.
 */
public final class StaticBatcher implements AutoCloseable {
    private final Decoder decoder;
    private final TokenChoice choice;
    /** A cache for each batch size served, made when first needed; index k - 1. */
    private final List<DecodeState> states = new ArrayList<>();
    private volatile RequestLengths.Drawn requests;
    /** The end-of-sequence ids, or null: each request runs to its drawn output length. */
    private final Prompts stop;

    /** Greedy: each next token is the argmax. */
    public StaticBatcher(Decoder decoder, int maxBatch) {
        this(decoder, maxBatch, TokenChoice.GREEDY, null);
    }

    /**
     * @param choice how each next token is chosen from the logits (a {@link Sampler}: its seeded draws run on from
     *               batch to batch of this caller)
     * @param stop   whose end-of-sequence ids end a request early; null (or none): none does
     */
    public StaticBatcher(Decoder decoder, int maxBatch, TokenChoice choice, Prompts stop) {
        this.decoder = decoder;
        this.choice = choice;
        this.stop = stop == null || stop.stop().length == 0 ? null : stop;
        for (int k = 0; k < maxBatch; k++) {
            states.add(null);
        }
    }

    /** The requests of the next step, by their index in its schedule. */
    public void use(RequestLengths.Drawn drawn) {
        this.requests = drawn;
    }

    /** Serves requests {@code ids} as one batch; each one's {@code System.nanoTime()} at each of its tokens. */
    public long[][] serve(int[] ids) throws BenchException {
        return serve(ids, null, null);
    }

    /**
     * As {@link #serve(int[])}, telling {@code done} as each request ends (its last token, or its end-of-sequence
     * token), while the batch may run on for the others: the moment a closed-loop user sends its next request.
     */
    public long[][] serve(int[] ids, OpenLoop.Done done) throws BenchException {
        return serve(ids, null, done);
    }

    /**
     * As {@link #serve(int[])}; with {@code tokens} non-null, {@code tokens[s]} receives request {@code ids[s]}'s output
     * tokens (for checks, outside timed steps).
     */
    public long[][] serve(int[] ids, long[][] tokens) throws BenchException {
        return serve(ids, tokens, null);
    }

    /**
     * The tokens a batch of requests {@code ids} of the current step holds in the cache, padding included: each
     * sequence the longest prompt of the batch (the others left-padded to it) and the longest output.
     */
    public long cacheTokens(int[] ids) {
        RequestLengths.Drawn r = requests;
        int longestPrompt = Arrays.stream(ids).map(i -> r.prompt()[i]).max().orElse(0);
        int longestOutput = Arrays.stream(ids).map(i -> r.output()[i]).max().orElse(0);
        return (long) ids.length * (longestPrompt + longestOutput);
    }

    private long[][] serve(int[] ids, long[][] tokens, OpenLoop.Done done) throws BenchException {
        RequestLengths.Drawn r = requests;
        int k = ids.length;
        int longestPrompt = Arrays.stream(ids).map(i -> r.prompt()[i]).max().orElseThrow();
        int longestOutput = Arrays.stream(ids).map(i -> r.output()[i]).max().orElseThrow();
        long[] prompt = new long[k * longestPrompt]; // padding ids are 0, masked out
        int[] pad = new int[k];
        long[][] times = new long[k][];
        for (int s = 0; s < k; s++) {
            pad[s] = longestPrompt - r.prompt()[ids[s]];
            System.arraycopy(r.ids()[ids[s]], 0, prompt, s * longestPrompt + pad[s], r.prompt()[ids[s]]);
            times[s] = new long[r.output()[ids[s]]];
        }
        DecodeState state = state(k);
        long[] next = new long[k];
        state.reset();
        state.pad(pad);
        int[] produced = new int[k];
        state.step(prompt, longestPrompt, next);
        boolean running = record(0, System.nanoTime(), next, times, tokens, produced, done);
        for (int t = 1; running && t < longestOutput; t++) {
            state.step(next, 1, next);
            running = record(t, System.nanoTime(), next, times, tokens, produced, done);
        }
        for (int s = 0; s < k; s++) {
            if (produced[s] < 0) { // stopped at its end-of-sequence token
                times[s] = Arrays.copyOf(times[s], -produced[s]);
            }
        }
        return times;
    }

    /**
     * Step t's tokens for the requests still running; whether any still runs. {@code produced[s]} counts request s's
     * tokens, negated once it stopped at an end-of-sequence token. {@code done}, when given, hears of each request
     * that ends at this step.
     */
    private boolean record(int t, long now, long[] next, long[][] times, long[][] tokens, int[] produced,
                           OpenLoop.Done done) {
        boolean running = false;
        for (int s = 0; s < times.length; s++) {
            if (produced[s] == t && t < times[s].length) { // neither stopped nor complete
                times[s][t] = now;
                if (tokens != null) {
                    tokens[s][t] = next[s];
                }
                boolean stopped = stop != null && stop.stops(next[s]);
                produced[s] = stopped ? -(t + 1) : t + 1;
                boolean goesOn = !stopped && t + 1 < times[s].length;
                running |= goesOn;
                if (!goesOn && done != null) {
                    done.at(s, now);
                }
            }
        }
        return running;
    }

    private DecodeState state(int k) throws BenchException {
        DecodeState s = states.get(k - 1);
        if (s == null) {
            s = decoder.begin(k, choice);
            states.set(k - 1, s);
        }
        return s;
    }

    /**
     * Before the measurement (on a greedy batcher: sampled draws depend on what else the batch holds): two requests of different prompt and output lengths served as one padded batch must
     * give, token for token, what each gives served alone (padding that leaked into attention or positions would
     * change them).
     */
    public void check(int vocab, long seed, int shortPrompt, int longPrompt, int outputLen) throws BenchException {
        RequestLengths.Drawn saved = requests;
        int[] prompts = {shortPrompt, longPrompt};
        int[] outputs = {outputLen, Math.max(1, outputLen - 1)};
        RequestLengths.Drawn two = new RequestLengths(null, null,
                List.of(new int[]{prompts[0], outputs[0], 0}, new int[]{prompts[1], outputs[1], 0}), "check")
                .draw(2, seed, vocab);
        use(two);
        long[][] together = {new long[outputs[0]], new long[outputs[1]]};
        serve(new int[]{0, 1}, together);
        for (int s = 0; s < 2; s++) {
            long[][] alone = {new long[outputs[s]]};
            serve(new int[]{s}, alone);
            if (!Arrays.equals(alone[0], together[s])) {
                throw new BenchException("a padded batch changed a request's tokens: prompt of " + prompts[s]
                        + " tokens gave " + Arrays.toString(together[s]) + " beside a prompt of " + prompts[1 - s]
                        + ", " + Arrays.toString(alone[0]) + " alone; expected the same tokens (the decoder must honour"
                        + " attention_mask and position_ids)");
            }
        }
        use(saved);
    }

    @Override
    public void close() {
        for (DecodeState s : states) {
            if (s != null) {
                s.close();
            }
        }
        states.clear();
    }
}

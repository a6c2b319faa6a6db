package dev.inferbench.engine;

import dev.inferbench.BenchException;

/**
 * One request's KV cache for a batch of sequences, and the step that grows it. Where the engine allows, the cache
 * stays in the engine's own tensors from step to step (each step's {@code present} outputs are the next step's
 * {@code past_key_values} inputs, never copied to the Java heap); docs/generation.md says what each engine copies.
 */
public interface DecodeState extends AutoCloseable {

    /**
     * Runs the model over {@code n} new tokens per sequence after the cached ones, and adds them to the cache.
     *
     * @param tokens {@code batch * n} token ids, sequence by sequence
     * @param next   receives each sequence's next token, chosen from its last position's logits by the state's
     *               {@link TokenChoice} (greedy unless the caller gave another)
     */
    void step(long[] tokens, int n, long[] next) throws BenchException;

    /**
     * Left-pads the next request's sequences: sequence s's prompt has {@code leading[s]} padding ids before its own
     * tokens, masked out and not counted in its positions, until {@link #reset}. A batch of prompts of different
     * lengths is so run as one batch, each sequence getting the tokens it would get alone.
     */
    void pad(int[] leading);

    /** Tokens per sequence in the cache. */
    int cached();

    /** Bytes the cache's tensors hold now, all sequences and layers. */
    long cacheBytes();

    /** Drops the cache: the next step starts a new request (a prompt). */
    void reset();

    /** Idempotent; never throws. */
    @Override
    void close();
}

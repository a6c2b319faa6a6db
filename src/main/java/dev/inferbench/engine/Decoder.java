package dev.inferbench.engine;

import dev.inferbench.BenchException;

/**
 * A decoder-only language model loaded for cached generation ({@link DecoderLayout}). Obtained from
 * {@link EngineKind#openDecoder}; the owner closes it. The weights are shared; each request's cache lives in a
 * {@link DecodeState} its caller owns.
 */
public interface Decoder extends AutoCloseable {

    DecoderLayout layout();

    /** An empty cache for {@code batch} sequences, decoded greedily. */
    default DecodeState begin(int batch) throws BenchException {
        return begin(batch, TokenChoice.GREEDY);
    }

    /**
     * An empty cache for {@code batch} sequences, reusable request after request through {@link DecodeState#reset};
     * each step's next tokens are {@code choice}'s.
     */
    DecodeState begin(int batch, TokenChoice choice) throws BenchException;

    /** Idempotent; never throws. */
    @Override
    void close();
}

package dev.inferbench.engine;

import dev.inferbench.BenchException;
import dev.inferbench.tensor.HostTensor;

import java.util.List;

/**
 * One model loaded by one engine on one device. Obtained from {@link EngineKind#open}; the owner closes it.
 * {@link #prepare} does the per-batch work that must stay out of the measured method; {@link #run} is what is timed.
 *
 * <p>Concurrency, the way a service shares a model: {@link #run} may be called from several threads at once provided
 * each thread runs its own prepared input (ORT's session is thread-safe and the pinned outputs belong to the input;
 * DJL gives each prepared input its own predictor). One prepared input is never run by two threads at once.
 */
public interface InferenceEngine extends AutoCloseable {

    ModelSignature signature();

    PreparedInput prepare(List<HostTensor> inputs) throws BenchException;

    Outputs run(PreparedInput input) throws BenchException;

    /** Idempotent; never throws. */
    @Override
    void close();
}

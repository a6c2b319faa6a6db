package dev.inferbench.engine;

import dev.inferbench.BenchException;
import dev.inferbench.tensor.HostTensor;

import java.util.List;

/**
 * One model loaded by one engine on one device. Obtained from {@link EngineKind#open}; the owner closes it.
 * {@link #prepare} does the per-batch work that must stay out of the measured method; {@link #run} is what is timed.
 */
public interface InferenceEngine extends AutoCloseable {

    ModelSignature signature();

    PreparedInput prepare(List<HostTensor> inputs) throws BenchException;

    Outputs run(PreparedInput input) throws BenchException;

    /** Idempotent; never throws. */
    @Override
    void close();
}

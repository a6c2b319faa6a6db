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

    /**
     * Like {@link #prepare(List)}, with outputs copied into inputs after every run ({@link StateFeed}): each run of the
     * prepared input continues from the state the previous run left. Engine {@code ort} feeds them; the others
     * refuse a feed that is not empty.
     */
    default PreparedInput prepare(List<HostTensor> inputs, StateFeed state) throws BenchException {
        if (!state.isEmpty()) {
            throw new BenchException("state " + state.text() + " feeds outputs back as inputs on engine ort only;"
                    + " expected -p engine=ort with -p state");
        }
        return prepare(inputs);
    }

    Outputs run(PreparedInput input) throws BenchException;

    /** Idempotent; never throws. */
    @Override
    void close();
}

package dev.inferbench.bench;

import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;


/** {@link ModelParams} plus what a steady-state call is made of: samples per call, tokens per sample, threads. */
// the state the benchmarks extend; JMH takes @Param fields only from @State classes
@State(Scope.Benchmark)
public abstract class BatchParams extends ModelParams {

    /** Samples per call; the model's batch dimension. */
    @Param("1")
    public int batchSize;

    /** Tokens per sample: the dynamic sequence dimension of transformer inputs (ignored by image models). */
    @Param("128")
    public int seqLen;

    /** Intra-op threads of the engine; 0 means all available cores. */
    @Param("0")
    public int threads;

}

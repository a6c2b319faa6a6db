package dev.inferbench.bench;

import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;


/**
 * {@link ModelParams} plus what a steady-state call is made of: samples per call, tokens per sample, input shapes and
 * values, threads.
 */
// the state the benchmarks extend; JMH takes @Param fields only from @State classes
@State(Scope.Benchmark)
public abstract class BatchParams extends ModelParams {

    /** Samples per call; the model's batch dimension. */
    @Param("1")
    public int batchSize;

    /** Tokens per sample: the dynamic sequence dimension of transformer inputs (ignored by image models). */
    @Param("128")
    public int seqLen;

    /**
     * Input shapes by input name (per sample, batch left out) or symbolic dimension name: {@code x:3x640x640},
     * {@code height:640;width:480}; {@code none} leaves them to the file, seqLen and model.NAME.inputs.
     */
    @Param("none")
    public String shape;

    /** What inputs hold instead of synthetic data: {@code sr:16000}, {@code x:0..1}, {@code h:h0.npy}; none for none. */
    @Param("none")
    public String values;

    /**
     * Outputs fed back as inputs between calls, OUTPUT:INPUT ({@code stateN:state}, a streaming model's recurrent
     * state; several joined by ';'); none for none.
     */
    @Param("none")
    public String state;

    /** Intra-op threads of the engine; 0 means all available cores. */
    @Param("0")
    public int threads;

}

package dev.inferbench.bench;

import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;


/**
 * {@link BatchParams} plus how a service would run the model: how many callers call it at once, whether they share
 * one loaded model, and whether ONNX Runtime's threads spin while they wait. The benchmarks that serve calls
 * (InferenceBenchmark, closed loop; ServingBenchmark, open loop) extend it.
 */
// the state the benchmarks extend; JMH takes @Param fields only from @State classes
@State(Scope.Benchmark)
public abstract class CallerParams extends BatchParams {

    /** Concurrent callers, each with its own prepared input and outputs (JMH's threads in InferenceBenchmark). */
    @Param("1")
    public int callers;

    /** shared: one loaded model for every caller; per-caller: each caller loads its own. */
    @Param("shared")
    public String sharing;

    /** on: ONNX Runtime's pool threads spin while waiting (its default); off: they sleep (engine ort only). */
    @Param("on")
    public String spin;

}

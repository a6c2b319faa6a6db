package dev.inferbench.bench;

import dev.inferbench.BenchException;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.config.BenchConfig;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.BenchmarkParams;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The parameters every model benchmark takes, declared once (JMH reads {@code @Param} fields of a benchmark's
 * superclasses): which model, on which engine and device. {@link BatchParams} adds the batch, and
 * InferenceBenchmark the engine settings, precision and data. A benchmark's setup turns them into one
 * {@link CellSpec}, the typed cell, from JMH's record of the cell's parameters ({@link #params}), and reads nothing else.
 */
// the state the benchmarks extend; JMH takes @Param fields only from @State classes
@State(Scope.Benchmark)
public abstract class ModelParams {

    /** A name from the model registry in benchmarks.properties, or the path of any .onnx file. */
    @Param("resnet50")
    public String model;

    /** ort (ONNX Runtime's Java API), djl-ort (the same ORT behind DJL's Predictor), djl-pytorch (DJL on libtorch). */
    @Param("ort")
    public String engine;

    /** cpu, cuda or cuda:N. */
    @Param("cpu")
    public String device;

    /**
     * The cell's parameters by name, as JMH set them: JMH hands its {@link BenchmarkParams} to a {@code @Setup}
     * method that asks for them, and they name every {@code @Param} of the benchmark, its superclasses' included.
     */
    protected static Map<String, String> params(BenchmarkParams jmh) {
        Map<String, String> p = new LinkedHashMap<>();
        for (String key : jmh.getParamsKeys()) {
            p.put(key, jmh.getParam(key));
        }
        return p;
    }

    /** The typed cell of this benchmark's parameters and the configuration. */
    protected static CellSpec cell(BenchConfig config, BenchmarkParams jmh) throws BenchException {
        return CellSpec.of(params(jmh), config);
    }
}

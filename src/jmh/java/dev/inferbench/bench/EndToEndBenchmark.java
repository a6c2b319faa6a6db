package dev.inferbench.bench;

import dev.inferbench.BenchException;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.config.ModelEntry;
import dev.inferbench.engine.Device;
import dev.inferbench.engine.EngineKind;
import dev.inferbench.engine.EngineSettings;
import dev.inferbench.engine.InferenceEngine;
import dev.inferbench.engine.Outputs;
import dev.inferbench.engine.PreparedInput;
import dev.inferbench.metrics.SetupRecord;
import dev.inferbench.pipeline.ImagePipeline;
import dev.inferbench.pipeline.TopK;
import dev.inferbench.tensor.TensorSpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One request as an image-classification service serves it: decode a PNG, resize, center-crop and normalize it
 * ({@link ImagePipeline}), turn the batch into engine tensors, run the model, copy the scores to the heap, softmax
 * and top-5 ({@link TopK}). Beside InferenceBenchmark's cell of the same model, engine and batch, the difference is
 * what the Java side of serving costs; the run summary prints it. Vision models only (a float input of
 * [N, 3, H, W]); a cell of another model fails in setup with one line saying so.
 */
// SampleTime and ms, as InferenceBenchmark: the two cells are read side by side.
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class EndToEndBenchmark {

    /** A vision model from the registry in benchmarks.properties. */
    @Param("resnet50")
    public String model;

    /** ort, djl-ort or djl-pytorch. */
    @Param("ort")
    public String engine;

    /** Images per request. */
    @Param("1")
    public int batchSize;

    /** cpu, cuda or cuda:N. */
    @Param("cpu")
    public String device;

    /** Intra-op threads of the engine; 0 means all available cores. */
    @Param("0")
    public int threads;

    private InferenceEngine loaded;
    private ImagePipeline pipeline;
    private String inputName;
    private byte[] png;

    @Setup(Level.Trial)
    public void load() {
        try {
            BenchConfig config = BenchConfig.load();
            ModelEntry entry = config.model(model);
            SetupRecord.loadStarting();
            loaded = EngineKind.parse(engine).open(entry.file(), Device.parse(device),
                    new EngineSettings(threads, 0, EngineSettings.GraphOptimization.ALL, entry.inputs()));
            SetupRecord.loaded();
            TensorSpec in = loaded.signature().inputs().get(0);
            long[] s = in.shape();
            if (loaded.signature().inputs().size() != 1 || in.type() != TensorSpec.DType.FLOAT32 || s.length != 4
                    || s[1] != 3 || s[2] <= 0 || s[3] <= 0) {
                throw new BenchException("EndToEndBenchmark needs a vision model (one float32 input [N, 3, H, W]); "
                        + "model '" + model + "' has " + loaded.signature().inputs());
            }
            inputName = in.name();
            pipeline = new ImagePipeline((int) s[2], (int) s[3]);
            png = pipeline.samplePng(config.seed("input"));
            long first = System.nanoTime();
            int[][] top = serve();
            SetupRecord.firstInference(first);
            if (top.length != batchSize) {
                throw new BenchException("model '" + model + "' gave " + top.length + " rows; expected " + batchSize);
            }
        } catch (BenchException e) {
            tearDown();
            throw new CellFailure(e);
        } catch (RuntimeException e) {
            tearDown();
            throw e;
        }
    }

    @Benchmark
    public void request(Blackhole bh) throws BenchException {
        bh.consume(serve());
    }

    private int[][] serve() throws BenchException {
        try (PreparedInput input = loaded.prepare(List.of(pipeline.preprocess(inputName, png, batchSize)));
             Outputs out = loaded.run(input)) {
            return TopK.of(out.floats(0), batchSize, 5);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (loaded != null) {
            loaded.close();
            loaded = null;
        }
    }
}

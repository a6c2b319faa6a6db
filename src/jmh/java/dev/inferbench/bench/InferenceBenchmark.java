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
import dev.inferbench.tensor.HostTensor;
import dev.inferbench.input.data.DataSource;
import dev.inferbench.input.data.ImageFolder;
import dev.inferbench.quality.AccuracyProbe;
import dev.inferbench.model.variant.Precision;
import dev.inferbench.model.variant.Variants;
import dev.inferbench.quality.CellQuality;
import dev.inferbench.quality.FidelityProbe;
import dev.inferbench.metrics.SetupRecord;
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

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The latency of one inference call: a batch of seeded synthetic inputs, prepared once as engine tensors, run
 * through one model on one engine and device. Everything but the call itself (loading, input creation, a
 * correctness check of the outputs, the fidelity of the cell's outputs to the fp32 reference) happens in the trial
 * setup, outside the measurement.
 *
 * <p>The matrix is the cross product of the parameters below; benchmarks.properties holds the defaults the
 * inferbench launcher passes, and {@code -p name=v1,v2} on the command line overrides them.
 */
// SampleTime: every call is timed, so the JSON carries p50/p90/p95/p99/p99.9, not only a mean.
@BenchmarkMode(Mode.SampleTime)
// Milliseconds: inference calls take 0.01 ms (tiny MLP) to seconds (large batches); ms reads well across that range.
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class InferenceBenchmark {

    /** A name from the model registry in benchmarks.properties, or the path of any .onnx file. */
    @Param("resnet50")
    public String model;

    /** ort (ONNX Runtime's Java API), djl-ort (the same ORT behind DJL's Predictor), djl-pytorch (DJL on libtorch). */
    @Param("ort")
    public String engine;

    /** Samples per call; the model's batch dimension. */
    @Param("1")
    public int batchSize;

    /** Tokens per sample: the dynamic sequence dimension of transformer inputs (ignored by image models). */
    @Param("128")
    public int seqLen;

    /** cpu, cuda or cuda:N. */
    @Param("cpu")
    public String device;

    /** Intra-op threads of the engine; 0 means all available cores. */
    @Param("0")
    public int threads;

    /** Inter-op threads (ORT's parallel executor, libtorch's inter-op pool); 0 keeps the engine's default. */
    @Param("0")
    public int interOpThreads;

    /** ONNX Runtime graph optimization level: all, extended, basic, none. ort and djl-ort; djl-pytorch ignores it. */
    @Param("all")
    public String optLevel;

    /**
     * fp32 (the model file as is), fp16 or int8: a variant made from the fp32 file before JMH starts. Every cell
     * records its fidelity to ONNX Runtime fp32 on the CPU (fidelity.top1, fidelity.maxabs, fidelity.cosine).
     */
    @Param("fp32")
    public String precision;

    /**
     * Where the input batch comes from: synthetic (seeded), or a path: an ONNX test set, a .npy file or folder of
     * them, an image folder with one sub-folder per class (then accuracy.top1/top5 are recorded too).
     */
    @Param("synthetic")
    public String data;

    private InferenceEngine loaded;
    private PreparedInput input;
    private long slowdownTokens;

    @Setup(Level.Trial)
    public void load() {
        try {
            BenchConfig config = BenchConfig.load();
            ModelEntry entry = config.model(model);
            if (batchSize <= 0 || seqLen <= 0) {
                throw new BenchException("batchSize " + batchSize + " / seqLen " + seqLen
                        + " is not positive; expected whole numbers >= 1");
            }
            EngineSettings settings = new EngineSettings(threads, interOpThreads,
                    EngineSettings.GraphOptimization.parse(optLevel), entry.inputs());
            CellQuality.clear();
            Path file = Variants.ensure(model, entry.file(), Precision.parse(precision), entry.inputs(),
                    Variants.calibrationSeed(config.seed("input")), System.out);
            SetupRecord.loadStarting();
            loaded = EngineKind.parse(engine).open(file, Device.parse(device), settings);
            SetupRecord.loaded();
            List<HostTensor> batch = DataSource.batch(data, model, entry.file(), loaded.signature().inputs(),
                    entry.inputs(), batchSize, seqLen, config.seed("input"));
            input = loaded.prepare(batch);
            long first = System.nanoTime();
            try (Outputs firstOutputs = loaded.run(input)) {
                SetupRecord.firstInference(first);
                OutputCheck.verify(model, firstOutputs, batchSize);
            }
            if (!EngineKind.isTorchScript(entry.file()) && !isReference()) {
                // loads the fp32 reference in this fork, after load.time and mem.native.model were taken; the fork's
                // mem.rss.peak includes it. The reference cell itself agrees with itself by definition: not probed.
                CellQuality.record(FidelityProbe.measure(loaded, entry.file(), model, entry.inputs(),
                        seqLen, config.seed("input")));
            }
            if (!data.equals(DataSource.SYNTHETIC) && ImageFolder.looksLike(Path.of(data))) {
                CellQuality.record(AccuracyProbe.measure(loaded, ImageFolder.read(Path.of(data)), model, batchSize));
            }
            slowdownTokens = InjectedSlowdown.tokens(InjectedSlowdown.percent(), this::callOnce);
        } catch (BenchException e) {
            tearDown();
            throw new CellFailure(e);
        } catch (RuntimeException e) {
            tearDown();
            throw e;
        }
    }

    @Benchmark
    public void infer(Blackhole bh) throws BenchException {
        try (Outputs out = loaded.run(input)) {
            bh.consume(out);
        }
        // the calibration aid's extra work; at 0 tokens (the default) one field read, nothing next to a call
        Blackhole.consumeCPU(slowdownTokens);
    }

    private void callOnce() {
        try (Outputs out = loaded.run(input)) {
            java.util.Objects.requireNonNull(out);
        } catch (BenchException e) {
            throw new CellFailure(e);
        }
    }

    /** The cell whose outputs are the fidelity reference: the model file as is, on ONNX Runtime, on the CPU. */
    private boolean isReference() throws BenchException {
        return Precision.parse(precision) == Precision.FP32 && EngineKind.parse(engine) == EngineKind.ORT
                && Device.parse(device).equals(Device.CPU);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (input != null) {
            input.close();
            input = null;
        }
        if (loaded != null) {
            loaded.close();
            loaded = null;
        }
    }
}

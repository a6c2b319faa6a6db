package dev.inferbench.bench;

import dev.inferbench.BenchException;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.engine.EngineKind;
import dev.inferbench.engine.InferenceEngine;
import dev.inferbench.engine.Outputs;
import dev.inferbench.engine.PreparedInput;
import dev.inferbench.input.data.DataSource;
import dev.inferbench.input.data.ImageFolder;
import dev.inferbench.quality.AccuracyProbe;
import dev.inferbench.variant.Variants;
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
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The latency of one inference call: a batch of seeded synthetic inputs, prepared once as engine tensors, run
 * through one model on one engine and device. Everything but the call itself (loading, input creation, a
 * correctness check of the outputs, the fidelity of the cell's outputs to the fp32 reference) happens in the trial
 * setup, outside the measurement.
 *
 * <p>The matrix is the cross product of the parameters below and those of {@link BatchParams}; benchmarks.properties
 * holds the defaults the inferbench launcher passes, and {@code -p name=v1,v2} on the command line overrides them.
 */
// SampleTime: calls are timed (all of them while they are long, a sample when short), so the JSON carries
// p50/p90/p95/p99/p99.9, not only a mean; the mean over every call is CallMeanProfiler's mean.all.
@BenchmarkMode(Mode.SampleTime)
// Milliseconds: inference calls take 0.01 ms (tiny MLP) to seconds (large batches); ms reads well across that range.
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class InferenceBenchmark extends BatchParams {

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

    @Override
    protected Map<String, String> params() {
        Map<String, String> p = super.params();
        p.put(CellSpec.INTER_OP_THREADS, Integer.toString(interOpThreads));
        p.put(CellSpec.OPT_LEVEL, optLevel);
        p.put(CellSpec.PRECISION, precision);
        p.put(CellSpec.DATA, data);
        return p;
    }

    private InferenceEngine loaded;
    private PreparedInput input;
    private long slowdownTokens;

    @Setup(Level.Trial)
    public void load() {
        try {
            CellSpec cell = cell(BenchConfig.load());
            CellQuality.clear();
            Path file = Variants.ensure(cell.modelName(), cell.modelFile(), cell.precision(), cell.model().inputs(),
                    Variants.calibrationSeed(cell.inputSeed()), System.out);
            SetupRecord.loadStarting();
            loaded = cell.engine().open(file, cell.device(), cell.settings());
            SetupRecord.loaded();
            input = loaded.prepare(DataSource.batch(cell.data(), cell.inputs(), loaded.signature().inputs()));
            long first = System.nanoTime();
            try (Outputs firstOutputs = loaded.run(input)) {
                SetupRecord.firstInference(first);
                OutputCheck.verify(cell.modelName(), firstOutputs, cell.batchSize());
            }
            if (!EngineKind.isTorchScript(cell.modelFile()) && !cell.isFidelityReference()) {
                // loads the fp32 reference in this fork, after load.time and mem.native.model were taken; the fork's
                // mem.rss.peak includes it. The reference cell itself agrees with itself by definition: not probed.
                CellQuality.record(FidelityProbe.measure(loaded, cell.inputs()));
            }
            if (!cell.syntheticData() && ImageFolder.looksLike(Path.of(cell.data()))) {
                CellQuality.record(AccuracyProbe.measure(loaded, ImageFolder.read(Path.of(cell.data())),
                        cell.modelName(), cell.batchSize()));
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
            Objects.requireNonNull(out);
        } catch (BenchException e) {
            throw new CellFailure(e);
        }
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

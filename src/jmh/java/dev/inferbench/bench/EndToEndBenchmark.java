package dev.inferbench.bench;

import java.util.Locale;
import dev.inferbench.BenchException;
import dev.inferbench.tail.SlowCalls;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.engine.InferenceEngine;
import dev.inferbench.engine.Outputs;
import dev.inferbench.engine.PreparedInput;
import dev.inferbench.metrics.SetupRecord;
import dev.inferbench.input.SyntheticInputs;
import dev.inferbench.model.stats.OnnxSummary;
import dev.inferbench.pipeline.ImagePipeline;
import dev.inferbench.pipeline.TextPipeline;
import dev.inferbench.pipeline.TopClasses;
import dev.inferbench.tensor.HostTensor;
import dev.inferbench.tensor.TensorSpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.infra.IterationParams;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One request as a service serves it. A vision model (one float input [N, 3, H, W]): decode a PNG, resize,
 * center-crop and normalize it ({@link ImagePipeline}). A text model (int64 token ids and an attention mask, such as
 * bert_base): split a sentence into words, map them to token ids, pad to seqLen and build the mask
 * ({@link TextPipeline}). Then turn the batch into engine tensors, run the model, copy the scores (a text model's
 * last [N, H] output, e.g. BERT's pooler) to the heap, softmax and top-5 ({@link TopClasses}). Beside
 * InferenceBenchmark's cell of the same model, engine and batch, the difference is what the Java side of serving
 * costs; the run summary prints it. A model of another shape fails in setup with one line saying so.
 */
// SampleTime and ms, as InferenceBenchmark: the two cells are read side by side.
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class EndToEndBenchmark extends BatchParams {

    private InferenceEngine loaded;
    private ImagePipeline images;
    private TextPipeline text;
    private List<String> inputNames;
    private byte[] png;
    private String sentence;
    private int scoresOutput;
    /** The requests' slow-call record ({@code --tail}); off, a branch before and after the request. */
    private SlowCalls tail = SlowCalls.off();

    private final DuetBarrier duet = DuetBarrier.fromProperty();

    /** In a duet (compare-commits --duet) each measured iteration starts with the other side's; in turns, after it. */
    @Setup(Level.Iteration)
    public void iteration(IterationParams params) {
        duet.arrive(params);
    }

    /** In turns (compare-commits --turns) the end of an iteration hands the machine to the other side. */
    @TearDown(Level.Iteration)
    public void iterationEnd() {
        duet.leave();
    }

    @Setup(Level.Trial)
    public void load(BenchmarkParams jmh) {
        try {
            CellSpec cell = cell(BenchConfig.load(), jmh);
            SetupRecord.loadStarting();
            loaded = cell.engine().open(cell.modelFile(), cell.device(), cell.settings());
            SetupRecord.loaded();
            List<TensorSpec> ins = loaded.signature().inputs();
            inputNames = ins.stream().map(TensorSpec::name).toList();
            if (isVision(ins)) {
                images = new ImagePipeline((int) ins.get(0).shape()[2], (int) ins.get(0).shape()[3]);
                png = images.samplePng(cell.inputSeed());
            } else if (isText(ins)) {
                long vocab = OnnxSummary.read(cell.modelFile()).vocab().orElse(SyntheticInputs.TOKEN_RANGE);
                text = new TextPipeline(seqLen, vocab);
                sentence = TextPipeline.sampleText(cell.inputSeed(), seqLen);
                List<TensorSpec> outs = loaded.signature().outputs();
                scoresOutput = outs.isEmpty() ? 0 : outs.size() - 1;
            } else {
                throw new BenchException("EndToEndBenchmark needs a vision model (one float32 input [N, 3, H, W]) or"
                        + " a text model (int64 token ids and attention mask [N, seq]); model '" + model + "' has "
                        + ins);
            }
            long first = System.nanoTime();
            int[][] top = serve();
            SetupRecord.firstInference(first);
            if (top.length != batchSize) {
                throw new BenchException("model '" + model + "' gave " + top.length + " rows; expected " + batchSize);
            }
            tail = SlowCalls.forSoleThread(jmh.getThreads());
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
        long start = tail.start();
        bh.consume(serve());
        tail.end(start);
    }

    private int[][] serve() throws BenchException {
        List<HostTensor> batch = images != null ? List.of(images.preprocess(inputNames.get(0), png, batchSize))
                : text.preprocess(sentence, batchSize, inputNames.get(0), inputNames.get(1));
        try (PreparedInput input = loaded.prepare(batch);
             Outputs out = loaded.run(input)) {
            return TopClasses.of(out.floats(scoresOutput), batchSize, 5);
        }
    }

    private static boolean isVision(List<TensorSpec> ins) {
        long[] s = ins.get(0).shape();
        return ins.size() == 1 && ins.get(0).type() == TensorSpec.DType.FLOAT32 && s.length == 4 && s[1] == 3
                && s[2] > 0 && s[3] > 0;
    }

    /** Token ids then the attention mask, both int64 [N, seq], as the zoo's BERT and common exports declare them. */
    private static boolean isText(List<TensorSpec> ins) {
        return ins.size() == 2 && ins.stream().allMatch(t -> t.type() == TensorSpec.DType.INT64 && t.shape().length == 2)
                && ins.get(1).name().toLowerCase(Locale.ROOT).contains("mask");
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        SetupRecord.callsEnded(); // the memory sampler's readings end here, before the model is freed
        if (loaded != null) {
            loaded.close();
            loaded = null;
        }
    }
}

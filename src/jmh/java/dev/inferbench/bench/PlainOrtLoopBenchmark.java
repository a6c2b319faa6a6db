package dev.inferbench.bench;

import ai.onnxruntime.OrtException;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.engine.DecoderLayout;
import dev.inferbench.generate.GenerationSpec;
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

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The reference for GenerationBenchmark's overhead: the same request (same file, prompt, lengths and greedy choice)
 * as {@link PlainOrtLoop}, a plain loop over ONNX Runtime's Java API with none of inferbench's classes between the
 * calls. Run both in one JMH run and compare their times per request: what GenerationBenchmark adds (or saves, since
 * it reads the logits in place) per token. Only the setup uses inferbench, to find the file and make the prompt.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class PlainOrtLoopBenchmark {
    /** A decoder's registry name or .onnx path, as for GenerationBenchmark. */
    @Param("llama-tiny")
    public String model;

    @Param("1")
    public int batchSize;

    @Param("128")
    public int promptLen;

    @Param("64")
    public int outputLen;

    @Param("0")
    public int threads;

    private PlainOrtLoop loop;

    @Setup(Level.Trial)
    public void load() throws Exception {
        Map<String, String> p = new HashMap<>(Map.of(CellSpec.MODEL, model, CellSpec.BATCH_SIZE, "" + batchSize,
                CellSpec.THREADS, "" + threads, GenerationSpec.PROMPT_LEN, "" + promptLen,
                GenerationSpec.OUTPUT_LEN, "" + outputLen));
        CellSpec cell = CellSpec.of(p, BenchConfig.load());
        GenerationSpec spec = GenerationSpec.of(p);
        DecoderLayout layout = DecoderLayout.of(cell.modelFile());
        long[] prompt = spec.prompt(batchSize, layout.vocab(), cell.inputSeed());
        loop = new PlainOrtLoop(cell.modelFile(), cell.settings().resolvedThreads(), batchSize, prompt, outputLen);
        loop.request(); // as GenerationBenchmark's setup check does: ORT's first-run allocations stay out of the timing
    }

    @Benchmark
    public void request(Blackhole bh) throws OrtException {
        bh.consume(loop.request());
    }

    @TearDown(Level.Trial)
    public void close() throws OrtException {
        if (loop != null) {
            loop.close();
        }
    }
}

package dev.inferbench.bench;

import dev.inferbench.BenchException;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.engine.DecodeState;
import dev.inferbench.engine.Decoder;
import dev.inferbench.engine.DecoderLayout;
import dev.inferbench.engine.Device;
import dev.inferbench.engine.EngineKind;
import dev.inferbench.generate.DecoderFidelity;
import dev.inferbench.generate.Generation;
import dev.inferbench.generate.GenerationRecord;
import dev.inferbench.generate.GenerationSpec;
import dev.inferbench.generate.Prompts;
import dev.inferbench.generate.RequestTimes;
import dev.inferbench.generate.Sampler;
import dev.inferbench.generate.Sampling;
import dev.inferbench.quality.CellQuality;
import dev.inferbench.tail.SlowCalls;
import dev.inferbench.variant.Variants;
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
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.infra.IterationParams;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * One generation request of a decoder-only language model: a seeded prompt of {@code promptLen} tokens per sequence
 * in one forward call (the prefill, which gives the first token), then {@code outputLen - 1} more tokens, each from
 * one forward call over the previous token with the KV cache, chosen greedily or sampled ({@code sampling});
 * {@code batchSize} sequences at once.
 * Each call of the benchmark method is one whole request, so its time is the end-to-end latency; the clock read at
 * each token gives TTFT, TPOT, the inter-token latencies, tokens/s and the prefill and decode shares
 * (GenerationProfiler's {@code gen.*}). The model is a decoder in Optimum's text-generation-with-past layout: the zoo's
 * ({@code smollm2_135m}, {@code llama-tiny}) or a user's export by path. Runs on ort and djl-ort.
 */
// SampleTime: requests take 10 ms to seconds, so every one is timed and the JSON has their percentiles too.
@BenchmarkMode(Mode.SampleTime)
// Milliseconds, as for InferenceBenchmark: requests run from ms (llama-tiny) to seconds (smollm2_135m, long prompts).
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class GenerationBenchmark extends ModelParams {

    /** Sequences generated at once (static batching): the batch dimension of every step. */
    @Param("1")
    public int batchSize;

    /** Prompt tokens per sequence: the prefill's length. */
    @Param("128")
    public int promptLen;

    /** Tokens generated per sequence; the first comes from the prefill, each further one from a cached step. */
    @Param("64")
    public int outputLen;

    /** Intra-op threads of the engine; 0 means all available cores. */
    @Param("0")
    public int threads;

    /**
     * How each next token is chosen: greedy, top-k=K or top-p=P, optionally with &temperature=T; draws seeded from
     * seed.input, again at each request.
     */
    @Param("greedy")
    public String sampling;

    /** fp32 (the model file as is) or fp16 (its float16 variant: float16 weights, caches and logits). */
    @Param("fp32")
    public String precision;

    /**
     * none (seeded ids of promptLen tokens), or a text file of one prompt per line or a .jsonl file of {"prompt": ...}
     * lines, encoded by the tokenizer.json beside the model; each sequence then stops at its end-of-sequence token.
     */
    @Param("none")
    public String prompts;

    private Decoder decoder;
    private CellSpec cell;
    private GenerationSpec spec;
    /** The prompt file's prompts as encoded, or null. */
    private Prompts encoded;
    private final DuetBarrier duet = DuetBarrier.fromProperty();

    /** A caller's own cache and request (JMH threads share the loaded model, never a cache). */
    @State(Scope.Thread)
    public static class Caller {
        DecodeState state;
        Generation generation;

        @Setup(Level.Trial)
        public void take(GenerationBenchmark cell) {
            CellFailure.setUp(() -> {
                Sampler sampler = cell.spec.sampling().sampler(cell.cell.inputSeed());
                state = cell.decoder.begin(cell.cell.batchSize(), sampler);
                DecoderLayout layout = cell.decoder.layout();
                if (cell.encoded != null) {
                    generation = new Generation(state, cell.cell.batchSize(), cell.encoded, cell.spec.outputLen(),
                            sampler);
                } else {
                    long[] prompt = cell.spec.prompt(cell.cell.batchSize(), layout.vocab(), cell.cell.inputSeed());
                    generation = new Generation(state, cell.cell.batchSize(), prompt, cell.spec, sampler);
                }
                check(generation.request(), generation.output(), layout, cell.cell.batchSize());
                // thread-scoped trial setup runs on the caller's own thread; the check's request is not recorded
                generation.recordTokens(SlowCalls.forThisThread());
            }, this::close);
        }

        @TearDown(Level.Trial)
        public void close() {
            if (state != null) {
                state.close();
                state = null;
            }
        }
    }

    @Setup(Level.Trial)
    public void load(BenchmarkParams jmh) {
        CellFailure.setUp(() -> {
            cell = cell(BenchConfig.load(), jmh);
            spec = GenerationSpec.of(params(jmh));
            Path file = Variants.ensure(cell.modelName(), cell.modelFile(), cell.precision(), cell.model().inputs(),
                    Variants.calibrationSeed(cell.inputSeed()), System.out);
            decoder = cell.engine().openDecoder(file, cell.device(), cell.settings());
            spec.check(decoder.layout(), cell.modelName(), cell.modelFile());
            encoded = spec.encode(cell.modelFile(), decoder.layout());
            if (encoded != null) {
                System.out.println("[inferbench] " + encoded.size() + " prompts from " + spec.prompts() + ", "
                        + (encoded.stop().length == 0 ? "no end-of-sequence id in the model's folder: every sequence"
                        + " runs to outputLen" : "stopping at " + Arrays.toString(encoded.stop()) + " ("
                        + encoded.stopSource() + ") or outputLen"));
            }
            CellQuality.clear();
            if (!cell.isFidelityReference() && cell.engine() != EngineKind.STUB) {
                // the cell's first sequence against the fp32 file on ort, cpu: before measuring, never inside it; the
                // stub's tokens are planted, not chosen from logits
                try (Decoder reference = EngineKind.ORT.openDecoder(cell.modelFile(), Device.CPU, cell.settings())) {
                    long[] prompt = encoded != null ? encoded.ids().get(0)
                            : spec.prompt(1, decoder.layout().vocab(), cell.inputSeed());
                    DecoderFidelity f = DecoderFidelity.measure(reference, decoder, prompt, spec.outputLen());
                    CellQuality.recordTokens(f.agreement(), f.maxAbsLogit(), f.tokens());
                }
            }
        }, this::tearDown);
    }

    /**
     * One request before the measurement: every token inside the vocabulary, and the cache holding what the request
     * fed it (prompt and output but the last token, each sequence, each layer's key and value).
     */
    static void check(RequestTimes r, long[] tokens, DecoderLayout layout, int batch) throws BenchException {
        if (Arrays.stream(tokens).anyMatch(t -> t < 0 || t >= layout.vocab())) {
            throw new BenchException("the decoder produced a token outside its vocabulary of " + layout.vocab());
        }
        long expected = (long) batch * (r.promptLen() + r.outputLen() - 1) * layout.cacheBytesPerToken();
        if (r.cacheBytes() != expected) {
            throw new BenchException("the decoder's cache holds " + r.cacheBytes() + " bytes after a request; expected "
                    + expected + " (" + layout.cacheBytesPerToken() + " per token)");
        }
    }

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

    @Benchmark
    public void request(Caller caller, Blackhole bh) throws BenchException {
        RequestTimes r = caller.generation.request();
        GenerationRecord.add(r);
        bh.consume(r);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (decoder != null) {
            decoder.close();
            decoder = null;
        }
    }
}

package dev.inferbench.bench;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
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

import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The reference for GenerationBenchmark's overhead: the same request (same file, prompt, lengths and greedy choice)
 * written as a plain loop over ONNX Runtime's Java API, the way its documentation writes one, with none of
 * inferbench's classes between the calls: each step makes its input tensors from Java arrays, runs the session, copies
 * the logits out ({@code getFloatBuffer}) for the argmax and passes the present tensors back as the next past. Run
 * both in one JMH run and compare their times per request: what GenerationBenchmark adds (or saves, since it reads
 * the logits in place) per token. Only the setup uses inferbench, to find the file and its layout.
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

    private OrtEnvironment env;
    private OrtSession session;
    private DecoderLayout layout;
    private long[] prompt;

    @Setup(Level.Trial)
    public void load() throws Exception {
        Map<String, String> p = new HashMap<>(Map.of(CellSpec.MODEL, model, CellSpec.BATCH_SIZE, "" + batchSize,
                CellSpec.THREADS, "" + threads, GenerationSpec.PROMPT_LEN, "" + promptLen,
                GenerationSpec.OUTPUT_LEN, "" + outputLen));
        CellSpec cell = CellSpec.of(p, BenchConfig.load());
        GenerationSpec spec = GenerationSpec.of(p);
        layout = DecoderLayout.of(cell.modelFile());
        prompt = spec.prompt(batchSize, layout.vocab(), cell.inputSeed());
        env = OrtEnvironment.getEnvironment();
        try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            options.setIntraOpNumThreads(cell.settings().resolvedThreads());
            session = env.createSession(cell.modelFile().toString(), options);
        }
        generate(); // as GenerationBenchmark's setup check does: ORT's first-run allocations stay out of the timing
    }

    @Benchmark
    public void request(Blackhole bh) throws OrtException {
        bh.consume(generate());
    }

    private long[] generate() throws OrtException {
        int b = batchSize;
        long[] ids = prompt;
        int n = promptLen;
        int past = 0;
        OrtSession.Result cache = null;
        long[] next = new long[b];
        for (int t = 0; t < outputLen; t++) {
            Map<String, OnnxTensor> in = new HashMap<>();
            long[] mask = new long[b * (past + n)];
            java.util.Arrays.fill(mask, 1);
            long[] positions = new long[b * n];
            for (int i = 0; i < positions.length; i++) {
                positions[i] = past + i % n;
            }
            in.put("input_ids", OnnxTensor.createTensor(env, LongBuffer.wrap(ids), new long[]{b, n}));
            in.put("attention_mask", OnnxTensor.createTensor(env, LongBuffer.wrap(mask), new long[]{b, past + n}));
            in.put("position_ids", OnnxTensor.createTensor(env, LongBuffer.wrap(positions), new long[]{b, n}));
            OnnxTensor empty = null;
            for (int l = 0; l < layout.layers(); l++) {
                for (String kv : new String[]{"key", "value"}) {
                    OnnxTensor pastKv;
                    if (cache == null) {
                        if (empty == null) {
                            empty = OnnxTensor.createTensor(env, FloatBuffer.allocate(0),
                                    new long[]{b, layout.kvHeads(), 0, layout.headDim()});
                        }
                        pastKv = empty;
                    } else {
                        pastKv = (OnnxTensor) cache.get("present." + l + "." + kv).orElseThrow();
                    }
                    in.put("past_key_values." + l + "." + kv, pastKv);
                }
            }
            OrtSession.Result result = session.run(in);
            FloatBuffer logits = ((OnnxTensor) result.get("logits").orElseThrow()).getFloatBuffer();
            int vocab = layout.vocab();
            for (int s = 0; s < b; s++) {
                int base = (s * n + n - 1) * vocab;
                int best = 0;
                for (int v = 1; v < vocab; v++) {
                    if (logits.get(base + v) > logits.get(base + best)) {
                        best = v;
                    }
                }
                next[s] = best;
            }
            in.get("input_ids").close();
            in.get("attention_mask").close();
            in.get("position_ids").close();
            if (empty != null) {
                empty.close();
            }
            if (cache != null) {
                cache.close();
            }
            cache = result;
            past += n;
            n = 1;
            ids = next.clone();
        }
        cache.close();
        return next;
    }

    @TearDown(Level.Trial)
    public void close() throws OrtException {
        if (session != null) {
            session.close();
        }
    }
}

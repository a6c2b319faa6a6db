package dev.inferbench.bench;

import ai.onnxruntime.NodeInfo;
import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;
import dev.inferbench.BenchException;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.engine.DecodeState;
import dev.inferbench.engine.Decoder;
import dev.inferbench.engine.Device;
import dev.inferbench.engine.EngineKind;
import dev.inferbench.engine.EngineSettings;
import dev.inferbench.generate.Generation;
import dev.inferbench.generate.GenerationSpec;
import dev.inferbench.generate.Sampler;
import dev.inferbench.stats.Interval;
import dev.inferbench.stats.Percentiles;
import dev.inferbench.stats.Ratio;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code tools/step-check.sh MODEL [PROMPT_LEN] [OUTPUT_LEN] [ROUNDS]}: what GenerationBenchmark adds to ONNX Runtime's
 * Java binding per output token, on one decoder, in one JVM, with nothing of the machine's process-to-process spread
 * in the way. Each round runs one greedy request (batch 1, one intra-op thread) through the harness's own request
 * ({@link Generation#request}, on the decoder GenerationBenchmark opens) and one through a bare loop written here on
 * the binding alone, as its documentation writes one (tensors over buffers, {@code session.run}, the logits read from
 * the returned tensor, the presents passed back as the next pasts, an argmax over a float16 table of its own), in
 * alternating order, each on its own session of the same file; TPOT as GenerationBenchmark defines it. Printed: both
 * TPOTs (medians of the rounds), harness / bare with its paired 99 % interval, and whether both chose the same tokens.
 *
 * <p>Exit 0: the interval lies below 1 + {@value #TOLERANCE_PERCENT} % (the harness adds less than that to the
 * binding's step); 1: it lies above, or the two loops chose different tokens; 3: it straddles (a noisy stretch; run
 * again or longer); 2: bad input.
 */
public final class StepCheck {
    static final int ROUNDS = 400;
    static final int PROMPT_LEN = 32;
    static final int OUTPUT_LEN = 64;
    static final double WARMUP_SECONDS = 5;
    static final double TOLERANCE_PERCENT = 1;
    static final double CONFIDENCE = 0.99;
    private static final String USAGE = "usage: tools/step-check.sh MODEL [PROMPT_LEN] [OUTPUT_LEN] [ROUNDS] (e.g. "
            + "tools/step-check.sh llama-tiny)";

    private StepCheck() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1 || args.length > 4) {
            System.err.println(USAGE);
            System.exit(2);
        }
        try {
            int prompt = args.length > 1 ? whole("PROMPT_LEN", args[1], 1, "32") : PROMPT_LEN;
            int output = args.length > 2 ? whole("OUTPUT_LEN", args[2], 2, "64") : OUTPUT_LEN;
            int rounds = args.length > 3 ? whole("ROUNDS", args[3], 8, "400") : ROUNDS;
            System.exit(run(args[0], prompt, output, rounds));
        } catch (BenchException e) {
            System.err.println("inferbench: " + e.getMessage());
            System.exit(2);
        }
    }

    /** {@code text} as a whole number of {@code least} or more, or one line that says what was expected. */
    static int whole(String name, String text, int least, String example) throws BenchException {
        try {
            int n = Integer.parseInt(text.trim());
            if (n >= least) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new BenchException(name + " '" + text + "' is not a whole number of " + least + " or more; expected e.g. "
                + example);
    }

    private static int run(String model, int promptLen, int outputLen, int rounds) throws Exception {
        CellSpec cell = CellSpec.of(Map.of(CellSpec.MODEL, model, CellSpec.BATCH_SIZE, "1", CellSpec.ENGINE, "ort",
                CellSpec.THREADS, "1"), BenchConfig.load());
        Path file = cell.modelFile();
        if (!Files.isRegularFile(file)) {
            throw new BenchException("model file " + file + " is missing; expected a decoder's .onnx file, or a zoo "
                    + "decoder made by a run first (java -jar target/benchmarks.jar GenerationBenchmark -p model="
                    + model + " -f 1 -i 1)");
        }
        GenerationSpec spec = new GenerationSpec(promptLen, outputLen);
        try (Decoder decoder = EngineKind.ORT.openDecoder(file, Device.CPU, EngineSettings.threads(1));
             Bare bare = new Bare(file, promptLen, outputLen)) {
            Sampler sampler = spec.sampling().sampler(cell.inputSeed());
            DecodeState state = decoder.begin(1, sampler);
            try {
                long[] prompt = spec.prompt(1, decoder.layout().vocab(), cell.inputSeed());
                Generation harness = new Generation(state, 1, prompt, spec, sampler);
                harness.request();
                long[] harnessTokens = harness.output();
                bare.request(prompt);
                long[] bareTokens = bare.tokens.clone();
                int warm = 0;
                long until = System.nanoTime() + (long) (WARMUP_SECONDS * 1e9);
                while (System.nanoTime() < until) {
                    harness.request();
                    bare.request(prompt);
                    warm++;
                }
                double[][] harnessMs = new double[rounds][1];
                double[][] bareMs = new double[rounds][1];
                for (int r = 0; r < rounds; r++) {
                    if (r % 2 == 0) {
                        harnessMs[r][0] = harness.request().tpotMs();
                        bareMs[r][0] = bare.request(prompt);
                    } else {
                        bareMs[r][0] = bare.request(prompt);
                        harnessMs[r][0] = harness.request().tpotMs();
                    }
                }
                return report(model, promptLen, outputLen, rounds, warm, harnessMs, bareMs,
                        Arrays.equals(harnessTokens, bareTokens));
            } finally {
                state.close();
            }
        }
    }

    private static int report(String model, int promptLen, int outputLen, int rounds, int warm, double[][] harnessMs,
                              double[][] bareMs, boolean sameTokens) {
        Interval ratio = Ratio.paired(bareMs, harnessMs, CONFIDENCE);
        System.out.printf(Locale.ROOT, "step check, %s batch 1 on ort, threads 1, prompt %d, output %d: %d rounds of "
                + "one request each way (order alternated), after %d warm-up rounds%n", model, promptLen, outputLen,
                rounds, warm);
        System.out.printf(Locale.ROOT, "  TPOT, the harness's request (GenerationBenchmark's): %.4f ms (median of "
                + "rounds)%n", median(harnessMs));
        System.out.printf(Locale.ROOT, "  TPOT, a bare loop on the same binding, same JVM:      %.4f ms%n",
                median(bareMs));
        System.out.printf(Locale.ROOT, "  harness / bare: %.4f [%.4f, %.4f] (%.0f %% interval, paired by round; "
                + "measured)%n", ratio.estimate(), ratio.lower(), ratio.upper(), CONFIDENCE * 100);
        System.out.printf(Locale.ROOT, "  tokens of the first request: %s%n", sameTokens ? "the same both ways"
                : "DIFFERENT: the two loops do not decode alike");
        double limit = 1 + TOLERANCE_PERCENT / 100;
        if (!sameTokens || ratio.lower() > limit) {
            System.out.printf(Locale.ROOT, "NOT within %.0f %%: %s%n", TOLERANCE_PERCENT, sameTokens
                    ? "the harness adds more than that to the binding's step" : "different tokens");
            return 1;
        }
        if (ratio.upper() <= limit) {
            System.out.printf(Locale.ROOT, "within %.0f %%: the harness adds less than that to the binding's step%n",
                    TOLERANCE_PERCENT);
            return 0;
        }
        System.out.printf(Locale.ROOT, "cannot tell: the interval straddles %.4f; run again or longer%n", limit);
        return 3;
    }

    private static double median(double[][] v) {
        double[] x = Arrays.stream(v).mapToDouble(r -> r[0]).sorted().toArray();
        return Percentiles.interpolated(x, 0.5);
    }

    /**
     * The bare loop: ONNX Runtime's Java binding and nothing of the harness, for an Optimum-layout decoder (with or
     * without position_ids, split or merged), float32 or float16 logits, batch 1.
     */
    private static final class Bare implements AutoCloseable {
        private final OrtEnvironment env = OrtEnvironment.getEnvironment();
        private final OrtSession session;
        private final List<String> pasts = new ArrayList<>();
        private final Set<String> outputs;
        private final boolean positions;
        private final boolean merged;
        private final boolean halfLogits;
        private final int vocab;
        private final int outputLen;
        private final OnnxTensor empty;
        private final LongBuffer ids;
        private final LongBuffer mask;
        private final LongBuffer steps;
        private final float[] halfTable = new float[1 << 16];
        private final short[] halfRow;
        private final float[] floatRow;
        final long[] tokens;

        Bare(Path file, int promptLen, int outputLen) throws OrtException {
            try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
                options.setIntraOpNumThreads(1);
                options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
                session = env.createSession(file.toString(), options);
            }
            for (String name : session.getInputNames()) {
                if (name.startsWith("past_key_values.")) {
                    pasts.add(name);
                }
            }
            Map<String, NodeInfo> in = session.getInputInfo();
            TensorInfo cache = (TensorInfo) in.get(pasts.get(0)).getInfo();
            TensorInfo logits = (TensorInfo) session.getOutputInfo().get("logits").getInfo();
            this.outputs = session.getOutputNames();
            this.positions = in.containsKey("position_ids");
            this.merged = in.containsKey("use_cache_branch");
            this.halfLogits = logits.type == OnnxJavaType.FLOAT16;
            this.vocab = (int) logits.getShape()[2];
            this.outputLen = outputLen;
            this.empty = OnnxTensor.createTensor(env, ByteBuffer.allocateDirect(0).order(ByteOrder.nativeOrder()),
                    new long[]{1, cache.getShape()[1], 0, cache.getShape()[3]}, cache.type);
            this.ids = longs(promptLen);
            this.mask = longs(promptLen + outputLen);
            this.steps = longs(promptLen);
            this.tokens = new long[outputLen];
            this.halfRow = new short[vocab];
            this.floatRow = new float[vocab];
            for (int h = 0; h < halfTable.length; h++) {
                int exponent = (h >> 10) & 0x1F;
                int fraction = h & 0x3FF;
                float magnitude = exponent == 0 ? Math.scalb((float) fraction, -24) : exponent == 31
                        ? (fraction == 0 ? Float.POSITIVE_INFINITY : Float.NaN)
                        : Math.scalb((float) (fraction | 0x400), exponent - 25);
                halfTable[h] = (h & 0x8000) != 0 ? -magnitude : magnitude;
            }
        }

        private static LongBuffer longs(int count) {
            return ByteBuffer.allocateDirect(count * Long.BYTES).order(ByteOrder.nativeOrder()).asLongBuffer();
        }

        private static LongBuffer first(LongBuffer b, long count) {
            return b.duplicate().clear().limit((int) count).slice();
        }

        /** One request from {@code prompt}; its TPOT in ms, its tokens in {@link #tokens}. */
        double request(long[] prompt) throws OrtException {
            OrtSession.Result cache = null;
            long past = 0;
            long first = 0;
            try {
                for (int t = 0; t < outputLen; t++) {
                    int n = t == 0 ? prompt.length : 1;
                    if (t == 0) {
                        ids.clear();
                        ids.put(prompt);
                    } else {
                        ids.put(0, tokens[t - 1]);
                    }
                    for (int i = 0; i < past + n; i++) {
                        mask.put(i, 1);
                    }
                    for (int i = 0; i < n; i++) {
                        steps.put(i, past + i);
                    }
                    List<OnnxTensor> made = new ArrayList<>();
                    Map<String, OnnxTensor> feeds = new HashMap<>();
                    feeds.put("input_ids", add(made, OnnxTensor.createTensor(env, first(ids, n), new long[]{1, n})));
                    feeds.put("attention_mask", add(made, OnnxTensor.createTensor(env, first(mask, past + n),
                            new long[]{1, past + n})));
                    if (positions) {
                        feeds.put("position_ids", add(made, OnnxTensor.createTensor(env, first(steps, n),
                                new long[]{1, n})));
                    }
                    if (merged) {
                        feeds.put("use_cache_branch", add(made, OnnxTensor.createTensor(env,
                                new boolean[]{cache != null})));
                    }
                    for (String name : pasts) {
                        feeds.put(name, cache == null ? empty
                                : (OnnxTensor) cache.get("present." + name.substring(16)).orElseThrow());
                    }
                    OrtSession.Result result = session.run(feeds, outputs);
                    tokens[t] = argmax((OnnxTensor) result.get("logits").orElseThrow(), n);
                    if (t == 0) {
                        first = System.nanoTime();
                    }
                    made.forEach(OnnxTensor::close);
                    if (cache != null) {
                        cache.close();
                    }
                    cache = result;
                    past += n;
                }
            } finally {
                if (cache != null) {
                    cache.close();
                }
            }
            return (System.nanoTime() - first) / 1e6 / (outputLen - 1);
        }

        private static OnnxTensor add(List<OnnxTensor> made, OnnxTensor t) {
            made.add(t);
            return t;
        }

        /** The highest logit of the last position (the first on ties), its row copied out in one bulk read. */
        private long argmax(OnnxTensor logits, int n) {
            ByteBuffer bytes = logits.getByteBuffer().order(ByteOrder.nativeOrder());
            int base = (n - 1) * vocab;
            int best = 0;
            if (halfLogits) {
                bytes.asShortBuffer().get(base, halfRow, 0, vocab);
                float max = halfTable[halfRow[0] & 0xFFFF];
                for (int v = 1; v < vocab; v++) {
                    float x = halfTable[halfRow[v] & 0xFFFF];
                    if (x > max) {
                        max = x;
                        best = v;
                    }
                }
            } else {
                bytes.asFloatBuffer().get(base, floatRow, 0, vocab);
                float max = floatRow[0];
                for (int v = 1; v < vocab; v++) {
                    if (floatRow[v] > max) {
                        max = floatRow[v];
                        best = v;
                    }
                }
            }
            return best;
        }

        @Override
        public void close() throws OrtException {
            empty.close();
            session.close();
        }
    }
}

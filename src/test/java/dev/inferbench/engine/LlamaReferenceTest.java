package dev.inferbench.engine;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtSession;
import dev.inferbench.model.Llama;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The zoo decoder against an independent computation of its architecture: ONNX Runtime's logits for a fixed prompt
 * (the prefill, then one step with the cache) against {@link LlamaReference}'s, computed in double from the same
 * file's weights without ONNX Runtime. Float32 inference against a double reference agrees to a few 1e-7 (the
 * logits stay under one unit); the tolerance of 1e-5 leaves room for other kernels' summation order, and a change
 * of one rotary detail (its base) moves the logits by four orders of magnitude more.
 */
class LlamaReferenceTest {
    /** Absolute tolerance on a logit; llama-tiny's logits stay under one unit, float32 rounding near 1e-7 of that. */
    static final double TOLERANCE = 1e-5;

    @TempDir
    Path dir;

    @Test
    void ortLogitsMatchThePlainReferenceAtThePrefillAndTheCachedStep() throws Exception {
        Path file = OrtDecoderTest.writeTiny(dir);
        long[] prompt = OrtDecoderTest.prompts(1, 9, 512, 5)[0];
        float[][] ort = ortLogits(file, prompt);
        long[] all = Arrays.copyOf(prompt, prompt.length + 1);
        all[prompt.length] = argmax(ort[prompt.length - 1]);
        double[][] reference = new LlamaReference(Llama.tiny(), Llama.tiny().ropeTheta(), weights(file)).logits(all);

        double scale = maxAbs(reference);
        double diff = maxDiff(ort, reference);
        System.out.printf("llama-tiny vs the plain reference: max |logit| %.4f, max |delta| %.3g over %d positions%n",
                scale, diff, all.length);
        assertThat(scale).isGreaterThan(0.1); // a reference that computed zeros would match nothing real
        assertThat(diff).isLessThan(TOLERANCE);
    }

    @Test
    void aReferenceWithAnotherRopeBaseDoesNotMatch() throws Exception {
        Path file = OrtDecoderTest.writeTiny(dir);
        long[] prompt = OrtDecoderTest.prompts(1, 9, 512, 5)[0];
        float[][] ort = ortLogits(file, prompt);
        long[] all = Arrays.copyOf(prompt, prompt.length + 1);
        all[prompt.length] = argmax(ort[prompt.length - 1]);
        double[][] wrongBase = new LlamaReference(Llama.tiny(), 500_000, weights(file)).logits(all);
        double diff = maxDiff(ort, wrongBase);
        System.out.printf("llama-tiny vs a reference with rope base 500000: max |delta| %.3g%n", diff);
        assertThat(diff).isGreaterThan(100 * TOLERANCE);
        // the first position has angle 0 whatever the base: it still agrees, so the difference is the rotary's
        assertThat(maxDiff(new float[][]{ort[0]}, new double[][]{wrongBase[0]})).isLessThan(TOLERANCE);
    }

    static Map<String, FloatBuffer> weights(Path file) throws Exception {
        Map<String, FloatBuffer> w = new LinkedHashMap<>();
        OnnxFile.read(file, true).weights().forEach((k, v) -> {
            if (v != null) {
                w.put(k.replaceFirst("_0$", ""), v); // the writer numbers each initializer it names
            }
        });
        return w;
    }

    /**
     * ONNX Runtime's logits for the prompt's positions (one prefill call with an empty cache) and for one more token
     * (the greedy one, in a second call fed the first call's presents): {@code prompt.length + 1} rows.
     */
    static float[][] ortLogits(Path file, long[] prompt) throws Exception {
        Llama c = Llama.tiny();
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        int p = prompt.length;
        float[][] out = new float[p + 1][];
        try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            options.setIntraOpNumThreads(1);
            try (OrtSession session = env.createSession(file.toString(), options)) {
                Map<String, OnnxTensor> in = new LinkedHashMap<>();
                in.put("input_ids", OnnxTensor.createTensor(env, LongBuffer.wrap(prompt), new long[]{1, p}));
                in.put("attention_mask", ones(env, p));
                in.put("position_ids", range(env, 0, p));
                for (int l = 0; l < c.layers(); l++) {
                    for (String kv : new String[]{"key", "value"}) {
                        in.put("past_key_values." + l + "." + kv, OnnxTensor.createTensor(env, FloatBuffer.allocate(0),
                                new long[]{1, c.kvHeads(), 0, c.headDim()}));
                    }
                }
                try (OrtSession.Result first = session.run(in)) {
                    float[][][] logits = (float[][][]) first.get("logits").orElseThrow().getValue();
                    System.arraycopy(logits[0], 0, out, 0, p);
                    in.values().forEach(OnnxTensor::close);
                    in.clear();
                    long next = argmax(out[p - 1]);
                    in.put("input_ids", OnnxTensor.createTensor(env, LongBuffer.wrap(new long[]{next}), new long[]{1, 1}));
                    in.put("attention_mask", ones(env, p + 1));
                    in.put("position_ids", range(env, p, p + 1));
                    Map<String, OnnxTensor> feed = new LinkedHashMap<>(in);
                    for (int l = 0; l < c.layers(); l++) {
                        for (String kv : new String[]{"key", "value"}) {
                            feed.put("past_key_values." + l + "." + kv,
                                    (OnnxTensor) first.get("present." + l + "." + kv).orElseThrow());
                        }
                    }
                    try (OrtSession.Result second = session.run(feed)) {
                        out[p] = ((float[][][]) second.get("logits").orElseThrow().getValue())[0][0];
                    }
                } finally {
                    in.values().forEach(OnnxTensor::close);
                }
            }
        }
        return out;
    }

    private static OnnxTensor ones(OrtEnvironment env, int n) throws Exception {
        long[] v = new long[n];
        Arrays.fill(v, 1);
        return OnnxTensor.createTensor(env, LongBuffer.wrap(v), new long[]{1, n});
    }

    private static OnnxTensor range(OrtEnvironment env, int from, int to) throws Exception {
        long[] v = new long[to - from];
        for (int i = 0; i < v.length; i++) {
            v[i] = from + i;
        }
        return OnnxTensor.createTensor(env, LongBuffer.wrap(v), new long[]{1, v.length});
    }

    static long argmax(float[] row) {
        int best = 0;
        for (int i = 1; i < row.length; i++) {
            if (row[i] > row[best]) {
                best = i;
            }
        }
        return best;
    }

    static double maxDiff(float[][] a, double[][] b) {
        assertThat(a.length).isEqualTo(b.length);
        double max = 0;
        for (int t = 0; t < a.length; t++) {
            assertThat(a[t]).hasSize(b[t].length);
            for (int v = 0; v < a[t].length; v++) {
                max = Math.max(max, Math.abs(a[t][v] - b[t][v]));
            }
        }
        return max;
    }

    private static double maxAbs(double[][] x) {
        return Arrays.stream(x).flatMapToDouble(Arrays::stream).map(Math::abs).max().orElse(0);
    }
}

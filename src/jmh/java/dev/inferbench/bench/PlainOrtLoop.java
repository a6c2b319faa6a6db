package dev.inferbench.bench;

import ai.onnxruntime.NodeInfo;
import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The reference for GenerationBenchmark's overhead: a greedy request over an Optimum-layout decoder (with or without
 * {@code position_ids}, split or merged, float32 or float16) written as a plain loop over ONNX Runtime's Java API, the
 * way its documentation writes one, with none of inferbench's classes between the calls: each step makes its input
 * tensors from Java arrays, runs the session for every output, copies the logits out of the returned tensor
 * ({@code getByteBuffer}) and takes the argmax of each sequence's last position (float16 through a table of its own),
 * and passes the present tensors back as the next past. {@link PlainOrtLoopBenchmark} times it in its own forks,
 * {@code calibrate step-check} beside the harness's request in one JVM.
 */
public final class PlainOrtLoop implements AutoCloseable {
    private final OrtEnvironment env = OrtEnvironment.getEnvironment();
    private final OrtSession session;
    private final List<String> pasts = new ArrayList<>();
    private final boolean positions;
    private final boolean merged;
    private final boolean halfLogits;
    private final long[] emptyShape;
    private final OnnxJavaType cacheType;
    private final int vocab;
    private final int batch;
    private final int promptLen;
    private final int outputLen;
    private final long[] prompt;
    private final long[] output;
    private final float[] halfTable = new float[1 << 16];
    private final short[] halfRow;
    private final float[] floatRow;
    private long firstTokenNanos;
    private long endNanos;

    /** @param prompt {@code batch * promptLen} token ids, sequence by sequence */
    public PlainOrtLoop(Path file, int threads, int batch, long[] prompt, int outputLen) throws OrtException {
        try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            options.setIntraOpNumThreads(threads);
            session = env.createSession(file.toString(), options);
        }
        Map<String, NodeInfo> in = session.getInputInfo();
        for (String name : in.keySet()) {
            if (name.startsWith("past_key_values.")) {
                pasts.add(name);
            }
        }
        TensorInfo cache = (TensorInfo) in.get(pasts.get(0)).getInfo();
        TensorInfo logits = (TensorInfo) session.getOutputInfo().get("logits").getInfo();
        this.positions = in.containsKey("position_ids");
        this.merged = in.containsKey("use_cache_branch");
        this.halfLogits = logits.type == OnnxJavaType.FLOAT16;
        this.cacheType = cache.type;
        this.emptyShape = new long[]{batch, cache.getShape()[1], 0, cache.getShape()[3]};
        this.vocab = (int) logits.getShape()[2];
        this.batch = batch;
        this.promptLen = prompt.length / batch;
        this.outputLen = outputLen;
        this.prompt = prompt.clone();
        this.output = new long[batch * outputLen];
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

    /** One request; returns its last tokens, one per sequence. */
    public long[] request() throws OrtException {
        long[] ids = prompt;
        int n = promptLen;
        int past = 0;
        long[] next = new long[batch];
        OrtSession.Result cache = null;
        try {
            for (int t = 0; t < outputLen; t++) {
                long[] mask = new long[batch * (past + n)];
                Arrays.fill(mask, 1);
                long[] steps = new long[batch * n];
                for (int i = 0; i < steps.length; i++) {
                    steps[i] = past + i % n;
                }
                List<OnnxTensor> made = new ArrayList<>();
                Map<String, OnnxTensor> in = new HashMap<>();
                in.put("input_ids", made(made, OnnxTensor.createTensor(env, LongBuffer.wrap(ids),
                        new long[]{batch, n})));
                in.put("attention_mask", made(made, OnnxTensor.createTensor(env, LongBuffer.wrap(mask),
                        new long[]{batch, past + n})));
                if (positions) {
                    in.put("position_ids", made(made, OnnxTensor.createTensor(env, LongBuffer.wrap(steps),
                            new long[]{batch, n})));
                }
                if (merged) {
                    in.put("use_cache_branch", made(made, OnnxTensor.createTensor(env, new boolean[]{cache != null})));
                }
                OnnxTensor empty = cache == null ? made(made, OnnxTensor.createTensor(env,
                        ByteBuffer.allocateDirect(0).order(ByteOrder.nativeOrder()), emptyShape, cacheType)) : null;
                for (String name : pasts) {
                    in.put(name, cache == null ? empty
                            : (OnnxTensor) cache.get("present." + name.substring(16)).orElseThrow());
                }
                OrtSession.Result result = session.run(in);
                argmax((OnnxTensor) result.get("logits").orElseThrow(), n, next);
                for (int s = 0; s < batch; s++) {
                    output[s * outputLen + t] = next[s];
                }
                if (t == 0) {
                    firstTokenNanos = System.nanoTime();
                }
                made.forEach(OnnxTensor::close);
                if (cache != null) {
                    cache.close();
                }
                cache = result;
                past += n;
                n = 1;
                ids = next.clone();
            }
        } finally {
            if (cache != null) {
                cache.close();
            }
        }
        endNanos = System.nanoTime();
        return next;
    }

    /** The latest request's TPOT as GenerationBenchmark defines it: (end - first token) / (outputLen - 1), ms. */
    public double tpotMs() {
        return (endNanos - firstTokenNanos) / 1e6 / (outputLen - 1);
    }

    /** The latest request's tokens, {@code batch * outputLen}, sequence by sequence. */
    public long[] output() {
        return output.clone();
    }

    private static OnnxTensor made(List<OnnxTensor> made, OnnxTensor t) {
        made.add(t);
        return t;
    }

    /** The highest logit of each sequence's last position (the first on ties), its row copied out in one bulk read. */
    private void argmax(OnnxTensor logits, int n, long[] next) {
        ByteBuffer bytes = logits.getByteBuffer().order(ByteOrder.nativeOrder());
        for (int s = 0; s < batch; s++) {
            int base = (s * n + n - 1) * vocab;
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
                for (int v = 1; v < vocab; v++) {
                    if (floatRow[v] > floatRow[best]) {
                        best = v;
                    }
                }
            }
            next[s] = best;
        }
    }

    @Override
    public void close() throws OrtException {
        session.close();
    }
}

package dev.inferbench.engine;

import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxValue;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.inferbench.BenchException;
import dev.inferbench.tensor.TensorSpec.DType;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Cached generation on ONNX Runtime's Java API. Each step's {@code present} tensors are pinned outputs: ORT writes them
 * into direct buffers of the state's own ({@link PinnedKvCache}, two per present, used in turn and grown when a
 * request needs more), and each is passed as the next step's {@code past_key_values} as it is (no copy on the Java
 * side; the graph's Concat copies past into present inside ORT, as every Optimum export does). Pinned, the binding
 * makes no Java object of an output it returns at every step, which on a small decoder is a visible share of a
 * step (tools/step-check.sh measures it; docs/evidence/outside-decoder.md). The logits are
 * written into a pinned direct buffer per step length, read in place by the token choice (float16 logits: their last
 * positions read out in bulk, as bits for greedy, converted to float32 for a sampler); ids, mask and positions are
 * written into reused direct buffers that the input tensors wrap.
 * A merged decoder gets {@code use_cache_branch} false on a request's first step and true after.
 */
final class OrtDecoder implements Decoder {
    /** The inputs a step makes tensors of (the others are the cache's and the state's). */
    private static final List<String> STEP_INPUTS = List.of(DecoderLayout.IDS, DecoderLayout.MASK,
            DecoderLayout.POSITIONS);
    private final OrtEngine engine;
    private final DecoderLayout layout;
    private final List<String[]> names = new ArrayList<>(); // per layer: past key, past value, present key, value

    private OrtDecoder(OrtEngine engine, DecoderLayout layout) {
        this.engine = engine;
        this.layout = layout;
        for (int i = 0; i < layout.layers(); i++) {
            names.add(new String[]{"past_key_values." + i + ".key", "past_key_values." + i + ".value",
                    "present." + i + ".key", "present." + i + ".value"});
        }
    }

    static OrtDecoder open(Path model, Device device, EngineSettings settings) throws BenchException {
        DecoderLayout layout = DecoderLayout.of(model);
        return new OrtDecoder(OrtEngine.open(model, device, settings), layout);
    }

    @Override
    public DecoderLayout layout() {
        return layout;
    }

    @Override
    public DecodeState begin(int batch, TokenChoice choice) throws BenchException {
        try {
            return new State(batch, choice);
        } catch (OrtException e) {
            throw new BenchException("engine 'ort' cannot create an empty cache: "
                    + OrtEngine.firstLine(e.getMessage()), e);
        }
    }

    @Override
    public void close() {
        engine.close();
    }

    private final class State implements DecodeState {
        private final OrtEnvironment env = engine.environment();
        private final int batch;
        private final TokenChoice choice;
        private final OnnxTensor empty;
        /** A merged decoder's use_cache_branch: false on a request's first step, true after; null otherwise. */
        private final OnnxTensor firstBranch;
        private final OnnxTensor cachedBranch;
        private final StepBuffers buffers = new StepBuffers();
        private final HalfLogits half;
        private final PinnedKvCache cache;
        /** A step's pinned outputs by name, refilled every step. */
        private final Map<String, OnnxValue> outputs = new LinkedHashMap<>();
        private int cached;
        private Padding padding;
        private int pinnedN = -1;
        private OnnxTensor pinned;
        private ByteBuffer logits;
        private FloatBuffer logitsFloats;
        private OnnxTensor pinnedOne;
        private ByteBuffer logitsOne;
        private FloatBuffer logitsOneFloats;
        private boolean closed;

        State(int batch, TokenChoice choice) throws OrtException {
            this.batch = batch;
            this.choice = choice;
            this.padding = Padding.none(batch);
            // a first step's past: zero positions long, as Optimum's own runtime passes it
            this.empty = OnnxTensor.createTensor(env, ByteBuffer.allocateDirect(0).order(ByteOrder.nativeOrder()),
                    new long[]{batch, layout.kvHeads(), 0, layout.headDim()}, javaType(layout.cacheType()));
            this.firstBranch = layout.merged() ? OnnxTensor.createTensor(env, new boolean[]{false}) : null;
            this.cachedBranch = layout.merged() ? OnnxTensor.createTensor(env, new boolean[]{true}) : null;
            this.half = layout.logitsType() == DType.FLOAT16 ? new HalfLogits(batch, layout.vocab()) : null;
            this.cache = new PinnedKvCache(names.size() * 2, batch, layout.kvHeads(), layout.headDim(),
                    javaType(layout.cacheType()));
        }

        @Override
        public void step(long[] tokens, int n, long[] next) throws BenchException {
            if (closed) {
                throw new IllegalStateException("decode state is closed");
            }
            ByteBuffer out = run(tokens, n);
            if (half == null) {
                choice.choose(n == 1 ? logitsOneFloats : logitsFloats, batch, n, layout.vocab(), next);
            } else if (choice.choosesHalf()) {
                choice.chooseHalf(half.lastBits(out, n), batch, layout.vocab(), next);
            } else {
                choice.choose(half.lastPositions(out, n), batch, 1, layout.vocab(), next);
            }
        }

        /**
         * Runs one step and returns its logits. The input tensors it makes are closed whatever happens; when it fails
         * (ORT, a buffer too large, an Error) its presents are closed too and the pasts, and the cache's length, stay.
         */
        private ByteBuffer run(long[] tokens, int n) throws BenchException {
            Map<String, OnnxTensor> in = new LinkedHashMap<>();
            boolean ran = false;
            try {
                ByteBuffer out = pin(n);
                outputs.clear();
                outputs.put(DecoderLayout.LOGITS, n == 1 ? pinnedOne : pinned);
                OnnxTensor[] presents = cache.next(env, cached, n);
                buffers.fill(tokens, batch, n, cached, padding);
                in.put(DecoderLayout.IDS, OnnxTensor.createTensor(env, buffers.ids(batch * n), new long[]{batch, n}));
                in.put(DecoderLayout.MASK, OnnxTensor.createTensor(env, buffers.mask(batch * (cached + n)),
                        new long[]{batch, cached + n}));
                if (layout.positionIds()) {
                    in.put(DecoderLayout.POSITIONS, OnnxTensor.createTensor(env, buffers.positions(batch * n),
                            new long[]{batch, n}));
                }
                if (layout.merged()) {
                    in.put(DecoderLayout.USE_CACHE_BRANCH, cached == 0 ? firstBranch : cachedBranch);
                }
                for (int l = 0; l < names.size(); l++) {
                    String[] layer = names.get(l);
                    in.put(layer[0], cached == 0 ? empty : cache.past(2 * l));
                    in.put(layer[1], cached == 0 ? empty : cache.past(2 * l + 1));
                    outputs.put(layer[2], presents[2 * l]);
                    outputs.put(layer[3], presents[2 * l + 1]);
                }
                try (OrtSession.Result none = engine.session().run(in, Set.of(), outputs)) {
                    cache.advance(); // this step's presents are the next step's pasts, the last step's are closed
                    ran = true;
                }
                cached += n;
                return out;
            } catch (OrtException e) {
                throw new BenchException("decoding failed in engine 'ort' at " + cached + " cached tokens: "
                        + OrtEngine.firstLine(e.getMessage()), e);
            } finally {
                if (!ran) {
                    cache.discard();
                }
                for (String made : STEP_INPUTS) {
                    OnnxTensor t = in.get(made);
                    if (t != null) {
                        t.close();
                    }
                }
            }
        }

        /**
         * The pinned logits of a step of {@code n} tokens, in the model's logits type. A new length's tensor is made
         * before the last one's is closed: a failure leaves the last one usable.
         */
        private ByteBuffer pin(int n) throws OrtException, BenchException {
            OnnxJavaType type = javaType(layout.logitsType());
            if (n == 1) {
                if (pinnedOne == null) {
                    ByteBuffer b = logitsBuffer(1, type);
                    pinnedOne = OnnxTensor.createTensor(env, b, new long[]{batch, 1, layout.vocab()}, type);
                    logitsOne = b;
                    logitsOneFloats = b.asFloatBuffer();
                }
                return logitsOne;
            }
            if (pinnedN != n) {
                ByteBuffer b = logitsBuffer(n, type);
                OnnxTensor made = OnnxTensor.createTensor(env, b, new long[]{batch, n, layout.vocab()}, type);
                if (pinned != null) {
                    pinned.close();
                }
                pinned = made;
                logits = b;
                logitsFloats = b.asFloatBuffer();
                pinnedN = n;
            }
            return logits;
        }

        private ByteBuffer logitsBuffer(int n, OnnxJavaType type) throws BenchException {
            long bytes = (long) batch * n * layout.vocab() * type.size;
            if (bytes > Integer.MAX_VALUE) {
                throw new BenchException("the logits of a step of " + n + " tokens at batch " + batch + " take "
                        + bytes + " bytes, more than the 2 GiB one direct buffer holds; expected a shorter prompt"
                        + " or a smaller batch");
            }
            return ByteBuffer.allocateDirect((int) bytes).order(ByteOrder.nativeOrder());
        }

        @Override
        public int cached() {
            return cached;
        }

        @Override
        public long cacheBytes() {
            return cache.bytes(cached);
        }

        @Override
        public void pad(int[] leading) {
            padding = Padding.of(leading, batch);
        }

        @Override
        public void reset() {
            cache.reset();
            cached = 0;
            padding = Padding.none(batch);
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                reset();
                empty.close();
                for (OnnxTensor t : new OnnxTensor[]{pinned, pinnedOne, firstBranch, cachedBranch}) {
                    if (t != null) {
                        t.close();
                    }
                }
            }
        }
    }

    private static OnnxJavaType javaType(DType type) {
        return type == DType.FLOAT16 ? OnnxJavaType.FLOAT16 : OnnxJavaType.FLOAT;
    }
}

package dev.inferbench.engine;

import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxValue;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.inferbench.BenchException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Cached generation on ONNX Runtime's Java API. Each step's {@code present} tensors, which ORT allocates, are passed
 * as the next step's {@code past_key_values} as they are (native memory, no copy on the Java side; the graph's
 * Concat copies past into present inside ORT, as every Optimum export does). The logits are written into a pinned
 * direct buffer per step length, read in place for the argmax; ids, mask and positions are written into reused
 * direct buffers that the input tensors wrap.
 */
final class OrtDecoder implements Decoder {
    private final OrtEngine engine;
    private final DecoderLayout layout;
    private final Set<String> presents = new LinkedHashSet<>();
    private final List<String[]> names = new ArrayList<>(); // per layer: past key, past value, present key, value

    private OrtDecoder(OrtEngine engine, DecoderLayout layout) {
        this.engine = engine;
        this.layout = layout;
        for (int i = 0; i < layout.layers(); i++) {
            names.add(new String[]{"past_key_values." + i + ".key", "past_key_values." + i + ".value",
                    "present." + i + ".key", "present." + i + ".value"});
            presents.add("present." + i + ".key");
            presents.add("present." + i + ".value");
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
    public DecodeState begin(int batch) throws BenchException {
        try {
            return new State(batch);
        } catch (OrtException e) {
            throw new BenchException("engine 'ort' cannot create an empty cache: " + OrtEngine.firstLine(e.getMessage()), e);
        }
    }

    @Override
    public void close() {
        engine.close();
    }

    private final class State implements DecodeState {
        private final OrtEnvironment env = engine.environment();
        private final int batch;
        private final OnnxTensor empty;
        private final StepBuffers buffers = new StepBuffers();
        private OrtSession.Result cache;
        private int cached;
        private Padding padding;
        private int pinnedN = -1;
        private OnnxTensor pinned;
        private FloatBuffer logits;
        private OnnxTensor pinnedOne;
        private FloatBuffer logitsOne;
        private boolean closed;

        State(int batch) throws OrtException {
            this.batch = batch;
            this.padding = Padding.none(batch);
            // a first step's past: zero positions long, as Optimum's own runtime passes it
            this.empty = OnnxTensor.createTensor(env, ByteBuffer.allocateDirect(0).order(ByteOrder.nativeOrder()),
                    new long[]{batch, layout.kvHeads(), 0, layout.headDim()}, OnnxJavaType.FLOAT);
        }

        @Override
        public void step(long[] tokens, int n, long[] next) throws BenchException {
            if (closed) {
                throw new IllegalStateException("decode state is closed");
            }
            Map<String, OnnxTensor> in = new LinkedHashMap<>();
            try {
                buffers.fill(tokens, batch, n, cached, padding);
                in.put(DecoderLayout.IDS, OnnxTensor.createTensor(env, buffers.ids(batch * n), new long[]{batch, n}));
                in.put(DecoderLayout.MASK, OnnxTensor.createTensor(env, buffers.mask(batch * (cached + n)),
                        new long[]{batch, cached + n}));
                if (layout.positionIds()) {
                    in.put(DecoderLayout.POSITIONS, OnnxTensor.createTensor(env, buffers.positions(batch * n),
                            new long[]{batch, n}));
                }
                int small = in.size();
                for (String[] layer : names) {
                    in.put(layer[0], cache == null ? empty : tensor(cache, layer[2]));
                    in.put(layer[1], cache == null ? empty : tensor(cache, layer[3]));
                }
                FloatBuffer out = pin(n);
                OrtSession.Result result = engine.session().run(in, presents,
                        Map.of(DecoderLayout.LOGITS, n == 1 ? pinnedOne : pinned));
                closeFirst(in, small);
                if (cache != null) {
                    cache.close(); // the previous step's presents: this step's were written from them
                }
                cache = result;
                cached += n;
                Greedy.argmax(out, batch, n, layout.vocab(), next);
            } catch (OrtException e) {
                closeFirst(in, 3);
                throw new BenchException("decoding failed in engine 'ort' at " + cached + " cached tokens: "
                        + OrtEngine.firstLine(e.getMessage()), e);
            }
        }

        private FloatBuffer pin(int n) throws OrtException {
            if (n == 1) {
                if (pinnedOne == null) {
                    ByteBuffer b = direct((long) batch * layout.vocab());
                    pinnedOne = OnnxTensor.createTensor(env, b, new long[]{batch, 1, layout.vocab()}, OnnxJavaType.FLOAT);
                    logitsOne = b.asFloatBuffer();
                }
                return logitsOne;
            }
            if (pinnedN != n) {
                if (pinned != null) {
                    pinned.close();
                }
                ByteBuffer b = direct((long) batch * n * layout.vocab());
                pinned = OnnxTensor.createTensor(env, b, new long[]{batch, n, layout.vocab()}, OnnxJavaType.FLOAT);
                logits = b.asFloatBuffer();
                pinnedN = n;
            }
            return logits;
        }

        private static ByteBuffer direct(long floats) {
            return ByteBuffer.allocateDirect(Math.toIntExact(floats * 4)).order(ByteOrder.nativeOrder());
        }

        private static OnnxTensor tensor(OrtSession.Result r, String name) {
            OnnxValue v = r.get(name).orElseThrow();
            return (OnnxTensor) v;
        }

        private static void closeFirst(Map<String, OnnxTensor> in, int count) {
            in.values().stream().limit(count).forEach(OnnxTensor::close);
        }

        @Override
        public int cached() {
            return cached;
        }

        @Override
        public long cacheBytes() {
            if (cache == null) {
                return 0;
            }
            long bytes = 0;
            for (String name : presents) {
                OnnxTensor t = tensor(cache, name);
                bytes += t.getInfo().getNumElements() * t.getInfo().type.size;
            }
            return bytes;
        }

        @Override
        public void pad(int[] leading) {
            padding = Padding.of(leading, batch);
        }

        @Override
        public void reset() {
            if (cache != null) {
                cache.close();
                cache = null;
            }
            cached = 0;
            padding = Padding.none(batch);
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                reset();
                empty.close();
                for (OnnxTensor t : new OnnxTensor[]{pinned, pinnedOne}) {
                    if (t != null) {
                        t.close();
                    }
                }
            }
        }
    }

    /** Reused direct buffers for a step's ids, mask and positions, grown when a step needs more. */
    private static final class StepBuffers {
        private LongBuffer ids = LongBuffer.allocate(0);
        private LongBuffer mask = LongBuffer.allocate(0);
        private LongBuffer positions = LongBuffer.allocate(0);

        void fill(long[] tokens, int batch, int n, int cached, Padding padding) {
            ids = ensure(ids, batch * n);
            positions = ensure(positions, batch * n);
            int total = cached + n;
            mask = ensure(mask, batch * total);
            ids.clear();
            ids.put(tokens, 0, batch * n);
            for (int s = 0; s < batch; s++) {
                for (int i = 0; i < n; i++) {
                    positions.put(s * n + i, padding.position(s, cached + i));
                }
                for (int j = 0; j < total; j++) {
                    mask.put(s * total + j, padding.mask(s, j));
                }
            }
        }

        LongBuffer ids(int count) {
            return view(ids, count);
        }

        LongBuffer mask(int count) {
            return view(mask, count);
        }

        LongBuffer positions(int count) {
            return view(positions, count);
        }

        private static LongBuffer view(LongBuffer b, int count) {
            LongBuffer v = b.duplicate();
            v.clear().limit(count);
            return v.slice();
        }

        private static LongBuffer ensure(LongBuffer b, int count) {
            if (b.capacity() >= count) {
                return b;
            }
            return ByteBuffer.allocateDirect(Math.max(count, 2 * b.capacity()) * 8).order(ByteOrder.nativeOrder())
                    .asLongBuffer();
        }
    }
}

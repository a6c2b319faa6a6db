package dev.inferbench.engine;

import ai.djl.inference.Predictor;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.translate.TranslateException;
import dev.inferbench.BenchException;
import dev.inferbench.tensor.Half;
import dev.inferbench.tensor.TensorSpec.DType;

import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.ShortBuffer;

import java.nio.file.Path;

/**
 * Cached generation through DJL's {@code Predictor<NDList, NDList>} on its OnnxRuntime engine, the way a DJL user
 * writes the loop: each step's {@code present} arrays (DJL's wrappers of ORT's own tensors) go back in as the next
 * step's {@code past_key_values} without a copy. Two copies remain that {@code ort} does not make: the ids, mask and
 * positions are created from Java arrays each step, and the logits are copied to the Java heap for the token choice
 * (float16 ones converted to float32 there), since
 * DJL's OnnxRuntime arrays have no slicing or argmax of their own (with no fallback engine, as inferbench runs DJL).
 * Each step's arrays live under a manager of their own, closed once the next step has read them.
 */
final class DjlDecoder implements Decoder {
    private final DjlEngine engine;
    private final DecoderLayout layout;

    private DjlDecoder(DjlEngine engine, DecoderLayout layout) {
        this.engine = engine;
        this.layout = layout;
    }

    static DjlDecoder open(Path model, Device device, EngineSettings settings) throws BenchException {
        DecoderLayout layout = DecoderLayout.of(model);
        return new DjlDecoder((DjlEngine) DjlOrtEngine.open(model, device, settings), layout);
    }

    DjlEngine engine() {
        return engine;
    }

    @Override
    public DecoderLayout layout() {
        return layout;
    }

    @Override
    public DecodeState begin(int batch, TokenChoice choice) {
        return new State(batch, choice, engine.newPredictor());
    }

    @Override
    public void close() {
        engine.close();
    }

    private final class State implements DecodeState {
        private final int batch;
        private final TokenChoice choice;
        private final Predictor<NDList, NDList> predictor;
        private NDManager step;
        private NDList cache;
        private int cached;
        private Padding padding;
        private boolean closed;

        State(int batch, TokenChoice choice, Predictor<NDList, NDList> predictor) {
            this.batch = batch;
            this.choice = choice;
            this.predictor = predictor;
            this.padding = Padding.none(batch);
        }

        @Override
        public void step(long[] tokens, int n, long[] next) throws BenchException {
            NDManager manager = engine.manager().newSubManager();
            try {
                NDList in = new NDList();
                in.add(named(manager.create(java.util.Arrays.copyOf(tokens, batch * n), new Shape(batch, n)),
                        DecoderLayout.IDS));
                int total = cached + n;
                long[] mask = new long[batch * total];
                for (int i = 0; i < mask.length; i++) {
                    mask[i] = padding.mask(i / total, i % total);
                }
                in.add(named(manager.create(mask, new Shape(batch, total)), DecoderLayout.MASK));
                if (layout.positionIds()) {
                    long[] positions = new long[batch * n];
                    for (int i = 0; i < positions.length; i++) {
                        positions[i] = padding.position(i / n, cached + i % n);
                    }
                    in.add(named(manager.create(positions, new Shape(batch, n)), DecoderLayout.POSITIONS));
                }
                if (layout.merged()) {
                    in.add(named(manager.create(new boolean[]{cache != null}), DecoderLayout.USE_CACHE_BRANCH));
                }
                DataType cacheType = layout.cacheType() == DType.FLOAT16 ? DataType.FLOAT16 : DataType.FLOAT32;
                for (int i = 0; i < layout.layers(); i++) {
                    for (int kv = 0; kv < 2; kv++) {
                        NDArray past = cache == null ? manager.create(new Shape(batch, layout.kvHeads(), 0,
                                layout.headDim()), cacheType) : cache.get(1 + 2 * i + kv);
                        in.add(named(past, "past_key_values." + i + (kv == 0 ? ".key" : ".value")));
                    }
                }
                NDList out = predictor.predict(in);
                out.attach(manager);
                choice.choose(floats(out.get(0)), batch, n, layout.vocab(), next);
                if (step != null) {
                    step.close(); // the previous step's arrays, its presents among them
                }
                step = manager;
                cache = out;
                cached += n;
            } catch (TranslateException | RuntimeException e) {
                manager.close();
                throw new BenchException("decoding failed in engine 'djl-ort' at " + cached + " cached tokens: "
                        + DjlEngine.rootMessage(e), e);
            }
        }

        /** The logits on the Java heap as float32 (float16 ones converted, every position: DJL copies them all anyway). */
        private FloatBuffer floats(NDArray logits) {
            if (logits.getDataType() != DataType.FLOAT16) {
                return FloatBuffer.wrap(logits.toFloatArray());
            }
            ShortBuffer h = logits.toByteBuffer().order(ByteOrder.nativeOrder()).asShortBuffer();
            float[] f = new float[h.remaining()];
            for (int i = 0; i < f.length; i++) {
                f[i] = Half.toFloat(h.get(i));
            }
            return FloatBuffer.wrap(f);
        }

        private NDArray named(NDArray a, String name) {
            a.setName(name);
            return a;
        }

        @Override
        public int cached() {
            return cached;
        }

        @Override
        public long cacheBytes() {
            long bytes = 0;
            for (int i = 1; cache != null && i < cache.size(); i++) {
                bytes += cache.get(i).size() * cache.get(i).getDataType().getNumOfBytes();
            }
            return bytes;
        }

        @Override
        public void pad(int[] leading) {
            padding = Padding.of(leading, batch);
        }

        @Override
        public void reset() {
            if (step != null) {
                step.close();
                step = null;
            }
            cache = null;
            cached = 0;
            padding = Padding.none(batch);
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                reset();
                predictor.close();
            }
        }
    }
}

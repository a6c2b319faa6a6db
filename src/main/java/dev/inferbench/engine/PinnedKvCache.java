package dev.inferbench.engine;

import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import dev.inferbench.BenchException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The KV cache as pinned outputs: for each present, two direct buffers used in turn (the one holding this step's
 * pasts, the one ORT writes this step's presents into), each {@code [batch, kvHeads, tokens, headDim]} over its
 * first elements, grown (the pasts copied over) when a step needs more tokens than they hold. {@link OrtDecoder}
 * hands these to ONNX Runtime as pinned outputs and inputs, so that its Java binding makes no object of a present.
 */
final class PinnedKvCache {
    /** Wraps part of a direct buffer in an ORT tensor: ORT's own, or a test's that fails as a native allocation can. */
    @FunctionalInterface
    interface Wrap {
        OnnxTensor tensor(OrtEnvironment env, ByteBuffer data, long[] shape, OnnxJavaType type) throws OrtException;
    }

    private final Wrap wrap;
    private final int count;
    /** Elements of one present per cached token: batch x kvHeads x headDim. */
    private final long perToken;
    private final int batch;
    private final int kvHeads;
    private final int headDim;
    private final OnnxJavaType type;
    private final ByteBuffer[][] buffers;
    private final OnnxTensor[] past;
    private final OnnxTensor[] next;
    private int capacity;
    private int side;

    /** @param count the presents: two per layer */
    PinnedKvCache(int count, int batch, int kvHeads, int headDim, OnnxJavaType type) {
        this(OnnxTensor::createTensor, count, batch, kvHeads, headDim, type);
    }

    PinnedKvCache(Wrap wrap, int count, int batch, int kvHeads, int headDim, OnnxJavaType type) {
        this.wrap = wrap;
        this.count = count;
        this.batch = batch;
        this.kvHeads = kvHeads;
        this.headDim = headDim;
        this.perToken = (long) batch * kvHeads * headDim;
        this.type = type;
        this.buffers = new ByteBuffer[count][2];
        this.past = new OnnxTensor[count];
        this.next = new OnnxTensor[count];
    }

    /**
     * The pinned presents of a step of {@code n} tokens after {@code cached}, over the side not holding pasts. When it
     * fails, the presents it made are closed and the pasts are as they were.
     */
    OnnxTensor[] next(OrtEnvironment env, int cached, int n) throws OrtException, BenchException {
        try {
            return presents(env, cached, n);
        } catch (OrtException | BenchException | RuntimeException | Error e) {
            discard();
            throw e;
        }
    }

    private OnnxTensor[] presents(OrtEnvironment env, int cached, int n) throws OrtException, BenchException {
        int total = cached + n;
        if (total > capacity) {
            long fit = Integer.MAX_VALUE / (perToken * type.size); // tokens one direct buffer can hold
            if (total > fit) {
                throw new BenchException("a KV cache of " + total + " tokens at batch " + batch + " takes "
                        + perToken * total * type.size + " bytes a layer's key or value, more than the 2 GiB"
                        + " one direct buffer holds; expected a shorter request or a smaller batch");
            }
            grow(env, cached, (int) Math.min(fit, Math.max(total, capacity + capacity / 2L)));
        }
        long[] shape = {batch, kvHeads, total, headDim};
        for (int i = 0; i < count; i++) {
            next[i] = wrap.tensor(env, first(buffers[i][1 - side], total), shape, type);
        }
        return next;
    }

    OnnxTensor past(int i) {
        return past[i];
    }

    /** After a run: this step's presents become the pasts, the last step's pasts are closed. */
    void advance() {
        for (int i = 0; i < count; i++) {
            if (past[i] != null) {
                past[i].close();
            }
            past[i] = next[i];
            next[i] = null;
        }
        side = 1 - side;
    }

    /** After a failed run: this step's presents are closed, the pasts stay. */
    void discard() {
        for (int i = 0; i < count; i++) {
            if (next[i] != null) {
                next[i].close();
                next[i] = null;
            }
        }
    }

    long bytes(int cached) {
        return count * perToken * cached * type.size;
    }

    /** An empty cache; the buffers stay for the next request. */
    void reset() {
        discard();
        for (int i = 0; i < count; i++) {
            if (past[i] != null) {
                past[i].close();
                past[i] = null;
            }
        }
        side = 0;
    }

    /**
     * Larger buffers, the pasts copied over. Each past is closed only once its copy's tensor exists: a failure leaves
     * every past open over the buffer it was in, and the cache as usable as before.
     */
    private void grow(OrtEnvironment env, int cached, int tokens) throws OrtException {
        int bytes = (int) (perToken * tokens * type.size);
        long[] shape = {batch, kvHeads, cached, headDim};
        for (int i = 0; i < count; i++) {
            for (int s = 0; s < 2; s++) {
                ByteBuffer grown = ByteBuffer.allocateDirect(bytes).order(ByteOrder.nativeOrder());
                if (s == side && past[i] != null) {
                    grown.put(first(buffers[i][s], cached));
                    OnnxTensor moved = wrap.tensor(env, first(grown, cached), shape, type);
                    past[i].close();
                    past[i] = moved;
                }
                buffers[i][s] = grown;
            }
        }
        capacity = tokens;
    }

    /** The first {@code tokens} tokens' elements of {@code b}, as a buffer of their own. */
    private ByteBuffer first(ByteBuffer b, int tokens) {
        ByteBuffer v = b.duplicate();
        v.clear().limit((int) (perToken * tokens * type.size));
        return v.slice().order(ByteOrder.nativeOrder());
    }
}

package dev.inferbench.engine;

import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxValue;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Output tensors that ONNX Runtime writes into on every run of one prepared input (ORT Java's
 * {@code run(inputs, pinnedOutputs)}), so a steady-state call creates no output tensors, shape arrays or result
 * wrappers on the Java heap. Made from the outputs of the input's second run (shapes known, the input evidently
 * reused); owned by the prepared input and closed with it. The {@link Outputs} view it hands out is the same
 * object every call: its contents are those of the latest run and its {@code close()} frees nothing.
 */
final class PinnedOutputs implements Outputs {
    private final OnnxTensor[] tensors;
    private final Map<String, OnnxTensor> byName;
    /** The direct buffers ORT writes each output into, by name: what a state feed copies from. */
    private final Map<String, ByteBuffer> buffers;
    private boolean closed;

    private PinnedOutputs(OnnxTensor[] tensors, Map<String, OnnxTensor> byName, Map<String, ByteBuffer> buffers) {
        this.tensors = tensors;
        this.byName = byName;
        this.buffers = buffers;
    }

    /**
     * Tensors shaped and typed like {@code first}'s outputs, or null when one of them cannot be pinned (not a tensor,
     * strings, an unknown type, or over the 2 GiB one direct buffer holds): such models keep ORT's allocating run.
     * When it fails, the tensors it made are closed.
     */
    static PinnedOutputs like(OrtEnvironment env, OrtSession.Result first) throws OrtException {
        OnnxTensor[] tensors = new OnnxTensor[first.size()];
        Map<String, OnnxTensor> byName = new LinkedHashMap<>();
        Map<String, ByteBuffer> buffers = new LinkedHashMap<>();
        try {
            int i = 0;
            for (Map.Entry<String, OnnxValue> e : first) {
                if (!(e.getValue() instanceof OnnxTensor t) || !pinnable(t.getInfo())) {
                    closeAll(tensors);
                    return null;
                }
                TensorInfo info = t.getInfo();
                ByteBuffer buffer = ByteBuffer.allocateDirect((int) (info.getNumElements() * info.type.size))
                        .order(ByteOrder.nativeOrder());
                tensors[i] = OnnxTensor.createTensor(env, buffer, info.getShape(), info.type);
                byName.put(e.getKey(), tensors[i]);
                buffers.put(e.getKey(), buffer);
                i++;
            }
            return new PinnedOutputs(tensors, byName, buffers);
        } catch (OrtException | RuntimeException | Error e) {
            closeAll(tensors);
            throw e;
        }
    }

    private static boolean pinnable(TensorInfo info) {
        return info.type != OnnxJavaType.STRING && info.type != OnnxJavaType.UNKNOWN
                && info.getNumElements() * info.type.size <= Integer.MAX_VALUE;
    }

    /** The name-to-tensor map ORT's run takes; built once. */
    Map<String, OnnxTensor> byName() {
        return byName;
    }

    /** The bytes ORT wrote output {@code name} into on the latest run (the buffer itself, not a copy). */
    ByteBuffer bytes(String name) {
        return buffers.get(name);
    }

    long[] shapeOf(String name) {
        return byName.get(name).getInfo().getShape();
    }

    @Override
    public int count() {
        return tensors.length;
    }

    @Override
    public long[] shape(int index) {
        return tensors[index].getInfo().getShape();
    }

    @Override
    public float[] floats(int index) {
        return OrtOutputs.floatsOf(tensors[index]);
    }

    /** Nothing to free per call: the tensors live as long as the prepared input. */
    @Override
    public void close() {
    }

    /** Frees the tensors; called by the prepared input that owns them. Idempotent. */
    void release() {
        if (!closed) {
            closed = true;
            closeAll(tensors);
        }
    }

    private static void closeAll(OnnxTensor[] tensors) {
        for (OnnxTensor t : tensors) {
            if (t != null) {
                t.close();
            }
        }
    }
}

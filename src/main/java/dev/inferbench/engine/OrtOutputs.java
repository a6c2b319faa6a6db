package dev.inferbench.engine;

import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxValue;
import ai.onnxruntime.OrtSession;

import java.nio.FloatBuffer;

/** The outputs of an ORT run that allocated them (an input's first two runs, before its outputs are pinned). */
final class OrtOutputs implements Outputs {
    private final OrtSession.Result result;
    private boolean closed;

    OrtOutputs(OrtSession.Result result) {
        this.result = result;
    }

    @Override
    public int count() {
        return result.size();
    }

    @Override
    public long[] shape(int index) {
        return tensor(index).getInfo().getShape();
    }

    @Override
    public float[] floats(int index) {
        return floatsOf(tensor(index));
    }

    /** A float tensor's values as a Java array (empty for other types); the pinned outputs read theirs the same way. */
    static float[] floatsOf(OnnxTensor t) {
        if (t.getInfo().type != OnnxJavaType.FLOAT) {
            return new float[0];
        }
        FloatBuffer b = t.getFloatBuffer();
        float[] out = new float[b.remaining()];
        b.get(out);
        return out;
    }

    private OnnxTensor tensor(int index) {
        OnnxValue v = result.get(index);
        if (v instanceof OnnxTensor t) {
            return t;
        }
        throw new IllegalStateException("output " + index + " is not a tensor");
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            result.close();
        }
    }
}

package dev.inferbench.input.data;

import dev.inferbench.tensor.HostTensor;
import dev.inferbench.tensor.TensorSpec.DType;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;

/** Host tensors made from little-endian bytes read off disk, in the direct native-order buffers engines take. */
public final class HostTensors {
    private HostTensors() {
    }

    static HostTensor of(String name, DType type, long[] shape, ByteBuffer littleEndian) {
        ByteBuffer src = littleEndian.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer dst = ByteBuffer.allocateDirect(src.remaining()).order(ByteOrder.nativeOrder());
        return switch (type) {
            case FLOAT32 -> new HostTensor(name, type, shape, dst.asFloatBuffer().put(src.asFloatBuffer()).flip());
            case INT64 -> new HostTensor(name, type, shape, dst.asLongBuffer().put(src.asLongBuffer()).flip());
            case INT32 -> new HostTensor(name, type, shape, dst.asIntBuffer().put(src.asIntBuffer()).flip());
            default -> throw new IllegalArgumentException("no host tensor of type " + type);
        };
    }

    static HostTensor floats(String name, long[] shape, float[] values) {
        FloatBuffer f = ByteBuffer.allocateDirect(values.length * Float.BYTES).order(ByteOrder.nativeOrder())
                .asFloatBuffer();
        return new HostTensor(name, DType.FLOAT32, shape, f.put(values).flip());
    }

    /** The values of a float32 host tensor, for comparisons outside any measurement. */
    public static float[] toFloats(HostTensor t) {
        FloatBuffer f = ((FloatBuffer) t.data()).duplicate();
        f.rewind();
        float[] out = new float[f.remaining()];
        f.get(out);
        return out;
    }

    /**
     * The same samples with sample i moved to position (i + by) mod batch (dimension 0 is the batch): the same work in
     * another order. A fresh direct buffer; the tensor itself is left as it is.
     */
    static HostTensor rotated(HostTensor t, int by) {
        int batch = (int) t.shape()[0];
        int shift = Math.floorMod(by, Math.max(batch, 1));
        if (shift == 0) {
            return t;
        }
        int per = (int) (elements(t.shape()) / batch);
        Buffer src = t.data().duplicate().rewind();
        Buffer dst;
        if (src instanceof FloatBuffer f) {
            FloatBuffer d = direct(f.remaining() * Float.BYTES).asFloatBuffer();
            for (int i = 0; i < batch; i++) {
                d.put(((i + shift) % batch) * per, f, i * per, per);
            }
            dst = d;
        } else if (src instanceof LongBuffer l) {
            LongBuffer d = direct(l.remaining() * Long.BYTES).asLongBuffer();
            for (int i = 0; i < batch; i++) {
                d.put(((i + shift) % batch) * per, l, i * per, per);
            }
            dst = d;
        } else if (src instanceof IntBuffer n) {
            IntBuffer d = direct(n.remaining() * Integer.BYTES).asIntBuffer();
            for (int i = 0; i < batch; i++) {
                d.put(((i + shift) % batch) * per, n, i * per, per);
            }
            dst = d;
        } else if (src instanceof ByteBuffer bytes) {
            ByteBuffer d = direct(bytes.remaining());
            for (int i = 0; i < batch; i++) {
                d.put(((i + shift) % batch) * per, bytes, i * per, per);
            }
            dst = d;
        } else {
            throw new IllegalArgumentException("no host tensor over " + src.getClass().getSimpleName());
        }
        return new HostTensor(t.name(), t.type(), t.shape(), dst);
    }

    private static ByteBuffer direct(int bytes) {
        return ByteBuffer.allocateDirect(bytes).order(ByteOrder.nativeOrder());
    }

    static long elements(long[] shape) {
        long n = 1;
        for (long d : shape) {
            n *= d;
        }
        return n;
    }
}

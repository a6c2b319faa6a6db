package dev.inferbench.input.data;

import dev.inferbench.BenchException;
import dev.inferbench.tensor.HostTensor;
import dev.inferbench.tensor.TensorSpec.DType;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.util.Arrays;

/** Host tensors made from little-endian bytes read off disk, in the direct native-order buffers engines take. */
public final class HostTensors {
    /** A host tensor is one direct buffer, which holds at most this many bytes. */
    static final long MAX_BYTES = Integer.MAX_VALUE - 8;
    private static final int MAX_DIMS = 64;

    private HostTensors() {
    }

    static HostTensor of(String name, DType type, long[] shape, ByteBuffer littleEndian) {
        ByteBuffer src = littleEndian.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer dst = ByteBuffer.allocateDirect(src.remaining()).order(ByteOrder.nativeOrder());
        return switch (type) {
            case FLOAT32 -> new HostTensor(name, type, shape, dst.asFloatBuffer().put(src.asFloatBuffer()).flip());
            case INT64 -> new HostTensor(name, type, shape, dst.asLongBuffer().put(src.asLongBuffer()).flip());
            case INT32 -> new HostTensor(name, type, shape, dst.asIntBuffer().put(src.asIntBuffer()).flip());
            case FLOAT16 -> new HostTensor(name, type, shape, dst.asShortBuffer().put(src.asShortBuffer()).flip());
            case BOOL, UINT8, INT8 -> new HostTensor(name, type, shape, dst.put(src).flip());
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
        Buffer src = t.data().duplicate().rewind();
        int per = src.remaining() / batch;
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
        } else if (src instanceof ShortBuffer h) {
            ShortBuffer d = direct(h.remaining() * Short.BYTES).asShortBuffer();
            for (int i = 0; i < batch; i++) {
                d.put(((i + shift) % batch) * per, h, i * per, per);
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

    /**
     * The number of values of a tensor of {@code shape} whose values are {@code width} bytes each, refused (naming
     * {@code source}) when it has more dimensions than NumPy allows, a dimension is negative or the values would not
     * fit in one direct buffer. A shape with a zero dimension holds no values, as NumPy and ONNX have it, though each
     * of its other dimensions must still be one a buffer could hold.
     */
    static long elements(long[] shape, int width, String source) throws BenchException {
        if (shape.length > MAX_DIMS) {
            throw new BenchException(source + " has a shape of " + shape.length + " dimensions; expected at most "
                    + MAX_DIMS + ", as NumPy allows");
        }
        boolean empty = false;
        for (long d : shape) {
            if (d < 0) {
                throw new BenchException(source + " has shape " + Arrays.toString(shape) + " with a negative"
                        + " dimension; expected sizes of 0 or more");
            }
            if (d > MAX_BYTES) {
                throw tooBig(source, shape, width);
            }
            empty |= d == 0;
        }
        if (empty) {
            return 0;
        }
        long bytes = width;
        for (long d : shape) {
            // both factors are at most MAX_BYTES (below 2^31) here, so the product cannot wrap
            bytes *= d;
            if (bytes > MAX_BYTES) {
                throw tooBig(source, shape, width);
            }
        }
        return bytes / width;
    }

    private static BenchException tooBig(String source, long[] shape, int width) {
        return new BenchException(source + " has shape " + Arrays.toString(shape) + ", more " + width
                + "-byte values than one buffer holds; expected at most " + MAX_BYTES + " bytes of data");
    }
}

package dev.inferbench.input.data;

import dev.inferbench.tensor.HostTensor;
import dev.inferbench.tensor.TensorSpec.DType;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;

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

    static long elements(long[] shape) {
        long n = 1;
        for (long d : shape) {
            n *= d;
        }
        return n;
    }
}

package dev.inferbench.tensor;

import dev.inferbench.tensor.TensorSpec.DType;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

/** An input batch in Java-owned direct memory, before an engine converts it. {@code shape} includes the batch. */
public record HostTensor(String name, DType type, long[] shape, Buffer data) {

    /** The values as bytes in native order, in a new direct buffer of their size, whatever typed view holds them. */
    public ByteBuffer bytes() {
        Buffer d = data.duplicate().rewind();
        int count = d.remaining();
        int width = d instanceof LongBuffer || d instanceof DoubleBuffer ? 8 : d instanceof FloatBuffer
                || d instanceof IntBuffer ? 4 : d instanceof ShortBuffer ? 2 : 1;
        ByteBuffer out = ByteBuffer.allocateDirect(count * width).order(ByteOrder.nativeOrder());
        if (d instanceof FloatBuffer f) {
            out.asFloatBuffer().put(f);
        } else if (d instanceof LongBuffer l) {
            out.asLongBuffer().put(l);
        } else if (d instanceof IntBuffer i) {
            out.asIntBuffer().put(i);
        } else if (d instanceof ShortBuffer h) {
            out.asShortBuffer().put(h);
        } else if (d instanceof DoubleBuffer x) {
            out.asDoubleBuffer().put(x);
        } else {
            out.put((ByteBuffer) d).flip();
        }
        return out.position(0);
    }
}

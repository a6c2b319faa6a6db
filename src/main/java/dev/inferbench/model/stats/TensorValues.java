package dev.inferbench.model.stats;

import ai.onnx.proto.OnnxMl.TensorProto;
import dev.inferbench.model.OnnxReader.Initializer;

import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.nio.LongBuffer;

/**
 * A tensor held inside the graph (a Constant node's value, a subgraph's initializer) read as the reader reads a
 * top-level initializer: its dims, and the values of a small integer tensor (shapes, axes), which shape inference
 * folds. A tensor whose data lies in an external file is known by its dims alone; that file is never opened.
 */
final class TensorValues {
    /** Integer tensors up to this many elements keep their values, as in the reader. */
    private static final int SMALL = 512;

    private TensorValues() {
    }

    static Initializer of(String name, TensorProto t) {
        long[] dims = t.getDimsList().stream().mapToLong(Long::longValue).toArray();
        return new Initializer(name, t.getDataType(), dims, ints(t));
    }

    private static long[] ints(TensorProto t) {
        boolean int64 = t.getDataType() == TensorProto.DataType.INT64_VALUE;
        boolean int32 = t.getDataType() == TensorProto.DataType.INT32_VALUE;
        if (!int64 && !int32 || t.getDataLocation() == TensorProto.DataLocation.EXTERNAL) {
            return null;
        }
        if (t.getInt64DataCount() > 0 && t.getInt64DataCount() <= SMALL) {
            return t.getInt64DataList().stream().mapToLong(Long::longValue).toArray();
        }
        if (t.getInt32DataCount() > 0 && t.getInt32DataCount() <= SMALL) {
            return t.getInt32DataList().stream().mapToLong(Integer::longValue).toArray();
        }
        int width = int64 ? 8 : 4;
        if (t.getRawData().isEmpty() || t.getRawData().size() > SMALL * width) {
            return null;
        }
        if (int64) {
            LongBuffer b = t.getRawData().asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN).asLongBuffer();
            long[] v = new long[b.remaining()];
            b.get(v);
            return v;
        }
        IntBuffer b = t.getRawData().asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN).asIntBuffer();
        long[] v = new long[b.remaining()];
        for (int i = 0; i < v.length; i++) {
            v[i] = b.get(i);
        }
        return v;
    }
}

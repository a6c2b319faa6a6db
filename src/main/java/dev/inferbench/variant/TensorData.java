package dev.inferbench.variant;

import dev.inferbench.tensor.Half;
import ai.onnx.proto.OnnxMl.TensorProto;
import com.google.protobuf.ByteString;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/** Reads and writes the numbers of ONNX initializers (raw little-endian data or the typed repeated fields). */
final class TensorData {
    static final int FLOAT = TensorProto.DataType.FLOAT.getNumber();
    static final int FLOAT16 = TensorProto.DataType.FLOAT16.getNumber();

    private TensorData() {
    }

    static float[] floats(TensorProto t) {
        if (!t.getRawData().isEmpty()) {
            ByteBuffer raw = t.getRawData().asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
            float[] v = new float[raw.remaining() / 4];
            raw.asFloatBuffer().get(v);
            return v;
        }
        float[] v = new float[t.getFloatDataCount()];
        for (int i = 0; i < v.length; i++) {
            v[i] = t.getFloatData(i);
        }
        return v;
    }

    static TensorProto floatTensor(String name, List<Long> dims, float[] values) {
        ByteBuffer raw = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        raw.asFloatBuffer().put(values);
        return build(name, dims, FLOAT, raw);
    }

    static TensorProto halfTensor(String name, List<Long> dims, float[] values) {
        ByteBuffer raw = ByteBuffer.allocate(values.length * 2).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : values) {
            raw.putShort(Half.fromFloat(v));
        }
        raw.flip();
        return build(name, dims, FLOAT16, raw);
    }

    static TensorProto int8Tensor(String name, List<Long> dims, byte[] values, int dataType) {
        return build(name, dims, dataType, ByteBuffer.wrap(values));
    }

    static TensorProto int32Tensor(String name, List<Long> dims, int[] values) {
        ByteBuffer raw = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        raw.asIntBuffer().put(values);
        return build(name, dims, TensorProto.DataType.INT32.getNumber(), raw);
    }

    private static TensorProto build(String name, List<Long> dims, int type, ByteBuffer raw) {
        return TensorProto.newBuilder().setName(name).addAllDims(dims).setDataType(type)
                .setRawData(ByteString.copyFrom(raw)).build();
    }
}

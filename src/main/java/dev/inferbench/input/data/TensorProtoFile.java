package dev.inferbench.input.data;

import java.util.Arrays;
import ai.onnx.proto.OnnxMl.TensorProto;
import dev.inferbench.BenchException;
import dev.inferbench.tensor.HostTensor;
import dev.inferbench.tensor.TensorSpec.DType;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/** One serialized ONNX TensorProto ({@code input_0.pb}, {@code output_0.pb} of an ONNX backend test set). */
public final class TensorProtoFile {
    private TensorProtoFile() {
    }

    public static HostTensor read(Path file) throws BenchException {
        TensorProto t;
        try (InputStream in = Files.newInputStream(file)) {
            t = TensorProto.parseFrom(in);
        } catch (IOException e) {
            throw new BenchException(file + " is not a serialized ONNX TensorProto (" + e.getMessage()
                    + "); expected a .pb file as in ONNX test sets", e);
        }
        long[] shape = t.getDimsList().stream().mapToLong(Long::longValue).toArray();
        long n = HostTensors.elements(shape);
        DType type;
        if (t.getDataType() == TensorProto.DataType.FLOAT.getNumber()) {
            type = DType.FLOAT32;
        } else if (t.getDataType() == TensorProto.DataType.INT64.getNumber()) {
            type = DType.INT64;
        } else if (t.getDataType() == TensorProto.DataType.INT32.getNumber()) {
            type = DType.INT32;
        } else {
            throw new BenchException(file + " holds a tensor of ONNX data type "
                    + t.getDataType() + "; expected float32, int64 or int32");
        }
        ByteBuffer raw = t.getRawData().isEmpty() ? typedFields(t, type, n) : t.getRawData().asReadOnlyByteBuffer();
        int width = type == DType.INT64 ? 8 : 4;
        if (raw.remaining() != n * width) {
            throw new BenchException(file + " declares shape " + Arrays.toString(shape) + " (" + n
                    + " values) but holds " + raw.remaining() / width + "; expected a complete tensor");
        }
        return HostTensors.of(t.getName(), type, shape, raw);
    }

    private static ByteBuffer typedFields(TensorProto t, DType type, long n) {
        int count = switch (type) {
            case FLOAT32 -> t.getFloatDataCount();
            case INT64 -> t.getInt64DataCount();
            default -> t.getInt32DataCount();
        };
        ByteBuffer b = ByteBuffer.allocate(count * (type == DType.INT64 ? 8 : 4)).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < count; i++) {
            switch (type) {
                case FLOAT32 -> b.putFloat(t.getFloatData(i));
                case INT64 -> b.putLong(t.getInt64Data(i));
                default -> b.putInt(t.getInt32Data(i));
            }
        }
        return b.flip();
    }
}

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
        if (t.getDataLocation() == TensorProto.DataLocation.EXTERNAL || t.getExternalDataCount() > 0) {
            throw new BenchException(file + " keeps its values in an external file, which is not read; expected"
                    + " the values inside the .pb, as in ONNX test sets");
        }
        int width = type == DType.INT64 ? 8 : 4;
        long n = HostTensors.elements(shape, width, file.toString());
        int rawBytes = t.getRawData().size();
        if (rawBytes == 0 ? typedCount(t, type) != n : rawBytes != n * width) {
            String held = rawBytes == 0 ? typedCount(t, type) + " in " + typedField(type)
                    : rawBytes + " bytes of raw_data";
            throw new BenchException(file + " declares shape " + Arrays.toString(shape) + " (" + n + " values of "
                    + width + " bytes) but holds " + held + "; expected a complete tensor");
        }
        ByteBuffer raw = rawBytes == 0 ? typedFields(t, type, (int) n) : t.getRawData().asReadOnlyByteBuffer();
        return HostTensors.of(t.getName(), type, shape, raw);
    }

    private static int typedCount(TensorProto t, DType type) {
        return switch (type) {
            case FLOAT32 -> t.getFloatDataCount();
            case INT64 -> t.getInt64DataCount();
            default -> t.getInt32DataCount();
        };
    }

    private static String typedField(DType type) {
        return switch (type) {
            case FLOAT32 -> "float_data";
            case INT64 -> "int64_data";
            default -> "int32_data";
        };
    }

    /** The values of the typed field, {@code count} of them (already checked against what the field holds). */
    private static ByteBuffer typedFields(TensorProto t, DType type, int count) {
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

package dev.inferbench.engine;

import ai.onnx.proto.OnnxMl;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import dev.inferbench.BenchException;
import dev.inferbench.tensor.TensorSpec;
import dev.inferbench.tensor.TensorSpec.DType;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * What the DJL engines need from an ONNX file without loading it into an engine: the declared inputs and outputs,
 * the metadata, and (on request) the float initializers by name. Reads the protobuf stream field by field, so that
 * skipping the weights of a 100 MB model costs a seek, not a parse.
 */
record OnnxFile(ModelSignature signature, Map<String, String> metadata, Map<String, FloatBuffer> weights) {
    // Field numbers from onnx.proto: ModelProto.graph, ModelProto.metadata_props, GraphProto.initializer/input/output.
    private static final int MODEL_GRAPH = 7;
    private static final int MODEL_OPSET_IMPORT = 8;
    private static final int MODEL_METADATA = 14;
    private static final int GRAPH_INITIALIZER = 5;
    private static final int GRAPH_INPUT = 11;
    private static final int GRAPH_OUTPUT = 12;
    private static final int TENSOR_NAME = 8;

    static OnnxFile read(Path file, boolean withWeights) throws BenchException {
        Map<String, String> metadata = new LinkedHashMap<>();
        Map<String, FloatBuffer> weights = new LinkedHashMap<>();
        Set<String> initializers = new HashSet<>();
        List<OnnxMl.ValueInfoProto> inputs = new ArrayList<>();
        List<OnnxMl.ValueInfoProto> outputs = new ArrayList<>();
        try (InputStream in = Files.newInputStream(file)) {
            CodedInputStream c = CodedInputStream.newInstance(in, 1 << 16);
            c.setSizeLimit(Integer.MAX_VALUE);
            for (int tag = c.readTag(); tag != 0; tag = c.readTag()) {
                switch (WireFormat.getTagFieldNumber(tag)) {
                    case MODEL_METADATA -> {
                        OnnxMl.StringStringEntryProto e = OnnxMl.StringStringEntryProto.parseFrom(c.readBytes());
                        metadata.put(e.getKey(), e.getValue());
                    }
                    case MODEL_GRAPH -> {
                        int limit = c.pushLimit(c.readRawVarint32());
                        for (int g = c.readTag(); g != 0; g = c.readTag()) {
                            switch (WireFormat.getTagFieldNumber(g)) {
                                case GRAPH_INPUT -> inputs.add(OnnxMl.ValueInfoProto.parseFrom(c.readBytes()));
                                case GRAPH_OUTPUT -> outputs.add(OnnxMl.ValueInfoProto.parseFrom(c.readBytes()));
                                case GRAPH_INITIALIZER -> {
                                    if (withWeights) {
                                        OnnxMl.TensorProto t = OnnxMl.TensorProto.parseFrom(c.readBytes());
                                        initializers.add(t.getName());
                                        weights.put(t.getName(), floats(t));
                                    } else {
                                        initializers.add(tensorName(c));
                                    }
                                }
                                default -> c.skipField(g);
                            }
                        }
                        c.popLimit(limit);
                    }
                    default -> c.skipField(tag);
                }
            }
        } catch (IOException | RuntimeException e) {
            throw new BenchException("cannot read " + file + " as an ONNX model: " + e.getMessage()
                    + "; expected a valid .onnx file", e);
        }
        List<TensorSpec> in = inputs.stream().filter(v -> !initializers.contains(v.getName())).map(OnnxFile::spec).toList();
        return new OnnxFile(new ModelSignature(in, outputs.stream().map(OnnxFile::spec).toList()), metadata, weights);
    }

    /**
     * The version of the default operator set ({@code ai.onnx}, also written as the empty domain) the model imports,
     * or empty when the file does not say or cannot be read: it only explains a load failure, so it never adds one.
     */
    static OptionalLong opset(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            CodedInputStream c = CodedInputStream.newInstance(in, 1 << 16);
            c.setSizeLimit(Integer.MAX_VALUE);
            for (int tag = c.readTag(); tag != 0; tag = c.readTag()) {
                if (WireFormat.getTagFieldNumber(tag) != MODEL_OPSET_IMPORT) {
                    c.skipField(tag); // the graph, and its weights, are skipped, not parsed
                    continue;
                }
                OnnxMl.OperatorSetIdProto id = OnnxMl.OperatorSetIdProto.parseFrom(c.readBytes());
                if (id.getDomain().isEmpty() || id.getDomain().equals("ai.onnx")) {
                    return OptionalLong.of(id.getVersion());
                }
            }
        } catch (IOException | RuntimeException e) {
            // unreadable: the caller reports the engine's own error without the opset
        }
        return OptionalLong.empty();
    }

    /** Reads an initializer's name and skips the rest of it (its data above all). */
    private static String tensorName(CodedInputStream c) throws IOException {
        int limit = c.pushLimit(c.readRawVarint32());
        String name = "";
        for (int t = c.readTag(); t != 0; t = c.readTag()) {
            if (WireFormat.getTagFieldNumber(t) == TENSOR_NAME) {
                name = c.readString();
            } else {
                c.skipField(t);
            }
        }
        c.popLimit(limit);
        return name;
    }

    private static FloatBuffer floats(OnnxMl.TensorProto t) {
        if (t.getDataType() != OnnxMl.TensorProto.DataType.FLOAT.getNumber()) {
            return null;
        }
        if (!t.getRawData().isEmpty()) {
            return t.getRawData().asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
        }
        float[] data = new float[t.getFloatDataCount()];
        for (int i = 0; i < data.length; i++) {
            data[i] = t.getFloatData(i);
        }
        return FloatBuffer.wrap(data);
    }

    private static TensorSpec spec(OnnxMl.ValueInfoProto v) {
        if (!v.getType().hasTensorType()) {
            return new TensorSpec(v.getName(), DType.OTHER, new long[0]);
        }
        OnnxMl.TypeProto.Tensor t = v.getType().getTensorType();
        long[] shape = t.getShape().getDimList().stream()
                .mapToLong(d -> d.hasDimValue() ? d.getDimValue() : -1).toArray();
        DType type = switch (t.getElemType()) {
            case 1 -> DType.FLOAT32;
            case 6 -> DType.INT32;
            case 7 -> DType.INT64;
            case 9 -> DType.BOOL;
            case 10 -> DType.FLOAT16;
            case 16 -> DType.BFLOAT16;
            default -> DType.OTHER;
        };
        return new TensorSpec(v.getName(), type, shape);
    }
}

package dev.inferbench.model;

import ai.onnx.proto.OnnxMl;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.ExtensionRegistryLite;
import com.google.protobuf.WireFormat;
import dev.inferbench.tensor.TensorSpec;
import dev.inferbench.tensor.TensorSpec.DType;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The one reader of ONNX model files: it walks the protobuf stream field by field and keeps only the parts asked
 * for, so that skipping the weights of a 440 MB model costs a read past them, not a parse. Everything that needs an
 * ONNX file without loading it into an engine (model statistics, skip rules, the DJL engines) reads it here.
 */
public final class OnnxReader {
    /** How deep a read goes: each depth reads what the one before it does, and more. */
    public enum Depth {
        /** The metadata and the operator sets; the graph is skipped. */
        MODEL,
        /** Also the graph: inputs, outputs, nodes, value infos and each initializer's header, not its data. */
        GRAPH,
        /** Also every initializer whole, with its data. */
        WEIGHTS
    }

    /**
     * A weight: its element type (ONNX TensorProto.DataType number) and dimensions; {@code ints} holds the values
     * of small integer tensors (shapes, axes, indices), which shape inference needs, and is null otherwise.
     */
    public record Initializer(String name, int dataType, long[] dims, long[] ints) {
        public long elements() {
            long n = 1;
            for (long d : dims) {
                n *= d;
            }
            return n;
        }
    }

    /**
     * What was read. Graph inputs that are initializers (older exporters list weights as inputs) are left out of
     * {@code inputs}; {@code weights} is empty unless the read went to {@link Depth#WEIGHTS}.
     */
    public record Contents(Map<String, String> metadata, List<OnnxMl.OperatorSetIdProto> opsets,
                           List<OnnxMl.ValueInfoProto> inputs, List<OnnxMl.ValueInfoProto> outputs,
                           List<OnnxMl.NodeProto> nodes, List<OnnxMl.ValueInfoProto> valueInfo,
                           Map<String, Initializer> initializers, Map<String, OnnxMl.TensorProto> weights) {

        /** The version of the default operator set ({@code ai.onnx}, also written as the empty domain), if imported. */
        public OptionalLong opset() {
            return opsets.stream().filter(id -> id.getDomain().isEmpty() || id.getDomain().equals("ai.onnx"))
                    .mapToLong(OnnxMl.OperatorSetIdProto::getVersion).findFirst();
        }
    }

    // Field numbers from onnx.proto (ModelProto, GraphProto, TensorProto).
    private static final int MODEL_GRAPH = 7;
    private static final int MODEL_OPSET_IMPORT = 8;
    private static final int MODEL_METADATA = 14;
    private static final int GRAPH_NODE = 1;
    private static final int GRAPH_INITIALIZER = 5;
    private static final int GRAPH_INPUT = 11;
    private static final int GRAPH_OUTPUT = 12;
    private static final int GRAPH_VALUE_INFO = 13;
    private static final int TENSOR_DIMS = 1;
    private static final int TENSOR_DATA_TYPE = 2;
    private static final int TENSOR_INT32_DATA = 5;
    private static final int TENSOR_INT64_DATA = 7;
    private static final int TENSOR_NAME = 8;
    private static final int TENSOR_RAW_DATA = 9;
    /** Integer tensors up to this many bytes keep their values. */
    private static final int SMALL = 4096;
    private static final ExtensionRegistryLite NONE = ExtensionRegistryLite.getEmptyRegistry();

    private OnnxReader() {
    }

    /**
     * Reads a model from {@code in} (which it does not close) down to {@code depth}.
     *
     * @throws IOException when the stream fails or is not a protobuf message; a malformed message may also throw
     *                     an unchecked exception, which callers treat as the same failure
     */
    public static Contents read(InputStream in, Depth depth) throws IOException {
        CodedInputStream c = CodedInputStream.newInstance(in, 1 << 16);
        c.setSizeLimit(Integer.MAX_VALUE);
        Builder b = new Builder(depth);
        for (int tag = c.readTag(); tag != 0; tag = c.readTag()) {
            int field = lengthDelimited(tag) ? WireFormat.getTagFieldNumber(tag) : -1;
            if (field == MODEL_METADATA) {
                OnnxMl.StringStringEntryProto e = c.readMessage(OnnxMl.StringStringEntryProto.parser(), NONE);
                b.metadata.put(e.getKey(), e.getValue());
            } else if (field == MODEL_OPSET_IMPORT) {
                b.opsets.add(c.readMessage(OnnxMl.OperatorSetIdProto.parser(), NONE));
            } else if (field == MODEL_GRAPH && depth != Depth.MODEL) {
                int limit = c.pushLimit(c.readRawVarint32());
                graph(c, b);
                c.popLimit(limit);
            } else if (!c.skipField(tag)) {
                break;
            }
        }
        List<OnnxMl.ValueInfoProto> realInputs = b.inputs.stream()
                .filter(v -> !b.initializers.containsKey(v.getName())).toList();
        return new Contents(b.metadata, b.opsets, realInputs, b.outputs, b.nodes, b.valueInfo, b.initializers,
                b.weights);
    }

    /** A declared input or output as a {@link TensorSpec}: -1 for a dynamic dimension, OTHER for a type we lack. */
    public static TensorSpec spec(OnnxMl.ValueInfoProto v) {
        OnnxMl.TensorProto.DataType elem = OnnxMl.TensorProto.DataType.forNumber(v.getType().getTensorType().getElemType());
        DType type = elem == null ? DType.OTHER : switch (elem) {
            case FLOAT -> DType.FLOAT32;
            case FLOAT16 -> DType.FLOAT16;
            case BFLOAT16 -> DType.BFLOAT16;
            case INT64 -> DType.INT64;
            case INT32 -> DType.INT32;
            case BOOL -> DType.BOOL;
            case UINT8 -> DType.UINT8;
            case INT8 -> DType.INT8;
            default -> DType.OTHER;
        };
        return new TensorSpec(v.getName(), type, dims(v), dimNames(v));
    }

    /** Declared dims of a value: -1 for a dynamic one. */
    /** The symbolic name of each dimension ({@code dim_param}), "" for a fixed or unnamed one. */
    public static String[] dimNames(OnnxMl.ValueInfoProto v) {
        OnnxMl.TensorShapeProto shape = v.getType().getTensorType().getShape();
        String[] out = new String[shape.getDimCount()];
        for (int i = 0; i < out.length; i++) {
            OnnxMl.TensorShapeProto.Dimension d = shape.getDim(i);
            out[i] = d.hasDimParam() ? d.getDimParam() : "";
        }
        return out;
    }

    public static long[] dims(OnnxMl.ValueInfoProto v) {
        OnnxMl.TensorShapeProto shape = v.getType().getTensorType().getShape();
        long[] out = new long[shape.getDimCount()];
        for (int i = 0; i < out.length; i++) {
            OnnxMl.TensorShapeProto.Dimension d = shape.getDim(i);
            out[i] = d.hasDimValue() ? d.getDimValue() : -1;
        }
        return out;
    }

    private static void graph(CodedInputStream c, Builder b) throws IOException {
        for (int tag = c.readTag(); tag != 0; tag = c.readTag()) {
            switch (lengthDelimited(tag) ? WireFormat.getTagFieldNumber(tag) : -1) {
                case GRAPH_NODE -> b.nodes.add(c.readMessage(OnnxMl.NodeProto.parser(), NONE));
                case GRAPH_INPUT -> b.inputs.add(c.readMessage(OnnxMl.ValueInfoProto.parser(), NONE));
                case GRAPH_OUTPUT -> b.outputs.add(c.readMessage(OnnxMl.ValueInfoProto.parser(), NONE));
                case GRAPH_VALUE_INFO -> b.valueInfo.add(c.readMessage(OnnxMl.ValueInfoProto.parser(), NONE));
                case GRAPH_INITIALIZER -> {
                    if (b.depth == Depth.WEIGHTS) {
                        ByteString whole = c.readBytes();
                        Initializer init = initializer(whole.newCodedInput());
                        b.initializers.put(init.name(), init);
                        b.weights.put(init.name(), OnnxMl.TensorProto.parseFrom(whole));
                    } else {
                        int limit = c.pushLimit(c.readRawVarint32());
                        Initializer init = initializer(c);
                        b.initializers.put(init.name(), init);
                        c.popLimit(limit);
                    }
                }
                default -> {
                    if (!c.skipField(tag)) {
                        return;
                    }
                }
            }
        }
    }

    /** An initializer's header, read up to the current limit; data bytes over {@link #SMALL} are skipped. */
    private static Initializer initializer(CodedInputStream c) throws IOException {
        List<Long> dims = new ArrayList<>();
        List<Long> ints = new ArrayList<>();
        byte[] raw = null;
        int type = 0;
        String name = "";
        for (int tag = c.readTag(); tag != 0; tag = c.readTag()) {
            int field = WireFormat.getTagFieldNumber(tag);
            if (field == TENSOR_DIMS || field == TENSOR_INT64_DATA || field == TENSOR_INT32_DATA) {
                List<Long> into = field == TENSOR_DIMS ? dims : ints;
                if (lengthDelimited(tag)) {
                    int limit = c.pushLimit(c.readRawVarint32());
                    while (c.getBytesUntilLimit() > 0) {
                        into.add(c.readInt64());
                    }
                    c.popLimit(limit);
                } else {
                    into.add(c.readInt64());
                }
            } else if (field == TENSOR_RAW_DATA && lengthDelimited(tag)) {
                int length = c.readRawVarint32();
                if (length <= SMALL) {
                    raw = c.readRawBytes(length);
                } else {
                    c.skipRawBytes(length);
                }
            } else if (field == TENSOR_DATA_TYPE) {
                type = c.readInt32();
            } else if (field == TENSOR_NAME) {
                name = c.readString();
            } else if (!c.skipField(tag)) {
                break;
            }
        }
        long[] values = null;
        boolean integer = type == OnnxMl.TensorProto.DataType.INT64_VALUE
                || type == OnnxMl.TensorProto.DataType.INT32_VALUE;
        if (integer && raw != null) {
            ByteBuffer bytes = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
            int width = type == OnnxMl.TensorProto.DataType.INT64_VALUE ? 8 : 4;
            values = new long[raw.length / width];
            for (int i = 0; i < values.length; i++) {
                values[i] = width == 8 ? bytes.getLong() : bytes.getInt();
            }
        } else if (integer && !ints.isEmpty()) {
            values = ints.stream().mapToLong(Long::longValue).toArray();
        }
        return new Initializer(name, type, dims.stream().mapToLong(Long::longValue).toArray(), values);
    }

    private static boolean lengthDelimited(int tag) {
        return WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED;
    }

    private static final class Builder {
        final Depth depth;
        final Map<String, String> metadata = new LinkedHashMap<>();
        final List<OnnxMl.OperatorSetIdProto> opsets = new ArrayList<>();
        final List<OnnxMl.NodeProto> nodes = new ArrayList<>();
        final List<OnnxMl.ValueInfoProto> inputs = new ArrayList<>();
        final List<OnnxMl.ValueInfoProto> outputs = new ArrayList<>();
        final List<OnnxMl.ValueInfoProto> valueInfo = new ArrayList<>();
        final Map<String, Initializer> initializers = new LinkedHashMap<>();
        final Map<String, OnnxMl.TensorProto> weights = new LinkedHashMap<>();

        Builder(Depth depth) {
            this.depth = depth;
        }
    }
}

package dev.inferbench.model.stats;

import java.nio.ByteOrder;
import java.nio.ByteBuffer;
import ai.onnx.proto.OnnxMl;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.ExtensionRegistryLite;
import com.google.protobuf.WireFormat;
import dev.inferbench.BenchException;
import dev.inferbench.model.OnnxExporter;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * An ONNX file read without its weights: metadata, graph inputs and outputs, nodes, value infos, and each
 * initializer's name, type and shape. The weight bytes are skipped as they stream past, so a 440 MB model reads
 * in a fraction of a second and in little memory. Graph inputs that are initializers (older exporters list
 * weights as inputs) are left out of {@link #inputs}.
 */
public record OnnxSummary(Map<String, String> metadata, List<OnnxMl.ValueInfoProto> inputs,
                          List<OnnxMl.ValueInfoProto> outputs, List<OnnxMl.NodeProto> nodes,
                          List<OnnxMl.ValueInfoProto> valueInfo, Map<String, Initializer> initializers) {

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

    // Field numbers from onnx.proto (ModelProto, GraphProto, TensorProto).
    private static final int MODEL_GRAPH = 7;
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

    public static OnnxSummary read(Path file) throws BenchException {
        if (!Files.isRegularFile(file)) {
            throw new BenchException("model file not found: " + file + "; expected an .onnx file");
        }
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            OnnxSummary s = parse(CodedInputStream.newInstance(in));
            if (s.nodes.isEmpty() || s.inputs.isEmpty() || s.outputs.isEmpty()) {
                throw new BenchException(file + " is not a valid ONNX model (no graph with inputs, nodes and outputs)");
            }
            return s;
        } catch (IOException | RuntimeException e) {
            throw new BenchException(file + " is not a valid ONNX model (" + e.getMessage() + ")", e);
        }
    }

    private static OnnxSummary parse(CodedInputStream in) throws IOException {
        Map<String, String> metadata = new LinkedHashMap<>();
        Builder g = new Builder();
        ExtensionRegistryLite none = ExtensionRegistryLite.getEmptyRegistry();
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            int field = WireFormat.getTagFieldNumber(tag);
            if (field == MODEL_METADATA && lengthDelimited(tag)) {
                OnnxMl.StringStringEntryProto e = in.readMessage(OnnxMl.StringStringEntryProto.parser(), none);
                metadata.put(e.getKey(), e.getValue());
            } else if (field == MODEL_GRAPH && lengthDelimited(tag)) {
                int limit = in.pushLimit(in.readRawVarint32());
                graph(in, g, none);
                in.popLimit(limit);
            } else if (!in.skipField(tag)) {
                break;
            }
        }
        List<OnnxMl.ValueInfoProto> realInputs = g.inputs.stream()
                .filter(v -> !g.initializers.containsKey(v.getName())).toList();
        return new OnnxSummary(metadata, realInputs, g.outputs, g.nodes, g.valueInfo, g.initializers);
    }

    private static void graph(CodedInputStream in, Builder g, ExtensionRegistryLite none) throws IOException {
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            switch (lengthDelimited(tag) ? WireFormat.getTagFieldNumber(tag) : -1) {
                case GRAPH_NODE -> g.nodes.add(in.readMessage(OnnxMl.NodeProto.parser(), none));
                case GRAPH_INPUT -> g.inputs.add(in.readMessage(OnnxMl.ValueInfoProto.parser(), none));
                case GRAPH_OUTPUT -> g.outputs.add(in.readMessage(OnnxMl.ValueInfoProto.parser(), none));
                case GRAPH_VALUE_INFO -> g.valueInfo.add(in.readMessage(OnnxMl.ValueInfoProto.parser(), none));
                case GRAPH_INITIALIZER -> {
                    int limit = in.pushLimit(in.readRawVarint32());
                    Initializer init = initializer(in);
                    g.initializers.put(init.name(), init);
                    in.popLimit(limit);
                }
                default -> {
                    if (!in.skipField(tag)) {
                        return;
                    }
                }
            }
        }
    }

    private static Initializer initializer(CodedInputStream in) throws IOException {
        List<Long> dims = new ArrayList<>();
        List<Long> ints = new ArrayList<>();
        byte[] raw = null;
        int type = 0;
        String name = "";
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            int field = WireFormat.getTagFieldNumber(tag);
            if (field == TENSOR_DIMS || field == TENSOR_INT64_DATA || field == TENSOR_INT32_DATA) {
                List<Long> into = field == TENSOR_DIMS ? dims : ints;
                if (lengthDelimited(tag)) {
                    int limit = in.pushLimit(in.readRawVarint32());
                    while (in.getBytesUntilLimit() > 0) {
                        into.add(in.readInt64());
                    }
                    in.popLimit(limit);
                } else {
                    into.add(in.readInt64());
                }
            } else if (field == TENSOR_RAW_DATA && lengthDelimited(tag)) {
                int length = in.readRawVarint32();
                if (length <= SMALL) {
                    raw = in.readRawBytes(length);
                } else {
                    in.skipRawBytes(length);
                }
            } else if (field == TENSOR_DATA_TYPE) {
                type = in.readInt32();
            } else if (field == TENSOR_NAME) {
                name = in.readString();
            } else if (!in.skipField(tag)) {
                break;
            }
        }
        long[] values = null;
        boolean integer = type == OnnxMl.TensorProto.DataType.INT64_VALUE || type == OnnxMl.TensorProto.DataType.INT32_VALUE;
        if (integer && raw != null) {
            ByteBuffer b = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
            int width = type == OnnxMl.TensorProto.DataType.INT64_VALUE ? 8 : 4;
            values = new long[raw.length / width];
            for (int i = 0; i < values.length; i++) {
                values[i] = width == 8 ? b.getLong() : b.getInt();
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
        final List<OnnxMl.NodeProto> nodes = new ArrayList<>();
        final List<OnnxMl.ValueInfoProto> inputs = new ArrayList<>();
        final List<OnnxMl.ValueInfoProto> outputs = new ArrayList<>();
        final List<OnnxMl.ValueInfoProto> valueInfo = new ArrayList<>();
        final Map<String, Initializer> initializers = new LinkedHashMap<>();
    }

    /** The token vocabulary recorded by the zoo generator ({@link OnnxExporter#META_VOCAB}), if any. */
    public OptionalInt vocab() {
        String v = metadata.get(OnnxExporter.META_VOCAB);
        try {
            return v == null ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(v.trim()));
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }

    /** An input whose batch (leading) dimension the file fixes: many exports declare {@code [1, 3, 224, 224]}. */
    public record FixedBatch(String input, long batch) {
    }

    /** The inputs whose leading dimension is a number, not a symbol, in input order. */
    public List<FixedBatch> fixedBatches() {
        List<FixedBatch> out = new ArrayList<>();
        for (OnnxMl.ValueInfoProto input : inputs) {
            long[] d = dims(input, null);
            if (d.length > 0 && d[0] > 0) {
                out.add(new FixedBatch(input.getName(), d[0]));
            }
        }
        return out;
    }

    /** Declared dims of a value: -1 for a dynamic one; its symbolic name (or "") in {@code names}. */
    public static long[] dims(OnnxMl.ValueInfoProto v, List<String> names) {
        OnnxMl.TensorShapeProto shape = v.getType().getTensorType().getShape();
        long[] out = new long[shape.getDimCount()];
        for (int i = 0; i < out.length; i++) {
            OnnxMl.TensorShapeProto.Dimension d = shape.getDim(i);
            out[i] = d.hasDimValue() ? d.getDimValue() : -1;
            if (names != null) {
                names.add(d.hasDimParam() ? d.getDimParam() : "");
            }
        }
        return out;
    }
}

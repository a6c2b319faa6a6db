package dev.inferbench.model;

import ai.onnx.proto.OnnxMl;
import ai.onnx.proto.OnnxMl.TensorProto.DataType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Tiny ONNX files with what the zoo never declares: named dynamic dimensions besides the batch and scalar inputs.
 * A dimension given as a String is symbolic ({@code dim_param}), as a number fixed.
 */
public final class DynamicModels {
    private DynamicModels() {
    }

    /** y = Relu(x), x and y {@code [batch, 3, height, width]} float. */
    public static Path image(Path file) throws IOException {
        OnnxMl.TensorShapeProto shape = shape("batch", 3L, "height", "width");
        return write(file, graph("image").addInput(value("x", DataType.FLOAT, shape))
                .addOutput(value("y", DataType.FLOAT, shape))
                .addNode(OnnxMl.NodeProto.newBuilder().setOpType("Relu").addInput("x").addOutput("y")));
    }

    /**
     * y = Conv(x, w), x {@code [batch, 3, height, width]}, w 4 filters of 3 x 3 x 3 padded to keep the size: y
     * {@code [batch, 4, height, width]}, 108 multiply-accumulates per output pixel, so 108 x height x width per sample.
     */
    public static Path convImage(Path file) throws IOException {
        OnnxMl.TensorProto.Builder w = OnnxMl.TensorProto.newBuilder().setName("w").setDataType(DataType.FLOAT_VALUE)
                .addAllDims(java.util.List.of(4L, 3L, 3L, 3L));
        for (int i = 0; i < 108; i++) {
            w.addFloatData((i % 7 - 3) / 10f);
        }
        return write(file, graph("conv-image").addInput(value("x", DataType.FLOAT, shape("batch", 3L, "height", "width")))
                .addOutput(value("y", DataType.FLOAT, shape("batch", 4L, "height", "width")))
                .addInitializer(w)
                .addNode(OnnxMl.NodeProto.newBuilder().setOpType("Conv").addInput("x").addInput("w").addOutput("y")
                        .addAttribute(OnnxMl.AttributeProto.newBuilder().setName("pads")
                                .setType(OnnxMl.AttributeProto.AttributeType.INTS).addAllInts(java.util.List.of(1L, 1L, 1L, 1L)))));
    }

    /** y = Relu(x), x and y {@code [batch, samples]} float: audio, whose length the file leaves open. */
    public static Path audio(Path file) throws IOException {
        OnnxMl.TensorShapeProto shape = shape("batch", "samples");
        return write(file, graph("audio").addInput(value("x", DataType.FLOAT, shape))
                .addOutput(value("y", DataType.FLOAT, shape))
                .addNode(OnnxMl.NodeProto.newBuilder().setOpType("Relu").addInput("x").addOutput("y")));
    }

    /** y = x * sr: x {@code [batch, 4]} float, sr a float scalar (a streaming model's sample rate). */
    public static Path scalar(Path file) throws IOException {
        return write(file, graph("scalar").addInput(value("x", DataType.FLOAT, shape("batch", 4L)))
                .addInput(value("sr", DataType.FLOAT, shape()))
                .addOutput(value("y", DataType.FLOAT, shape("batch", 4L)))
                .addNode(OnnxMl.NodeProto.newBuilder().setOpType("Mul").addInput("x").addInput("sr").addOutput("y")));
    }

    /**
     * A streaming model's recurrent state, as Silero VAD's: y = x (Identity), hn = h + 1. x {@code [batch, 4]}; h and
     * hn {@code [2, batch, 3]} with the batch named (legacy Silero's {@code h}) or {@code [2, ?, 3]} unnamed (v5's
     * {@code state}). Fed back (hn into h), the k-th call's hn holds k more than the first call's h.
     */
    public static Path recurrent(Path file, boolean namedBatch) throws IOException {
        OnnxMl.TensorShapeProto state = namedBatch ? shape(2L, "batch", 3L) : shape(2L, "", 3L);
        return write(file, graph("recurrent").addInput(value("x", DataType.FLOAT, shape("batch", 4L)))
                .addInput(value("h", DataType.FLOAT, state))
                .addOutput(value("y", DataType.FLOAT, shape("batch", 4L)))
                .addOutput(value("hn", DataType.FLOAT, state))
                .addInitializer(OnnxMl.TensorProto.newBuilder().setName("one").setDataType(DataType.FLOAT_VALUE)
                        .addFloatData(1f))
                .addNode(OnnxMl.NodeProto.newBuilder().setOpType("Identity").addInput("x").addOutput("y"))
                .addNode(OnnxMl.NodeProto.newBuilder().setOpType("Add").addInput("h").addInput("one").addOutput("hn")));
    }

    public static OnnxMl.TensorShapeProto shape(Object... dims) {
        OnnxMl.TensorShapeProto.Builder b = OnnxMl.TensorShapeProto.newBuilder();
        for (Object d : dims) {
            OnnxMl.TensorShapeProto.Dimension.Builder dim = OnnxMl.TensorShapeProto.Dimension.newBuilder();
            // "" is a dimension with neither a size nor a name, as some exporters leave dynamic ones
            b.addDim(d instanceof String s ? (s.isEmpty() ? dim : dim.setDimParam(s)) : dim.setDimValue((Long) d));
        }
        return b.build();
    }

    public static OnnxMl.ValueInfoProto value(String name, DataType type, OnnxMl.TensorShapeProto shape) {
        return OnnxMl.ValueInfoProto.newBuilder().setName(name).setType(OnnxMl.TypeProto.newBuilder()
                .setTensorType(OnnxMl.TypeProto.Tensor.newBuilder().setElemType(type.getNumber()).setShape(shape)))
                .build();
    }

    private static OnnxMl.GraphProto.Builder graph(String name) {
        return OnnxMl.GraphProto.newBuilder().setName(name);
    }

    private static Path write(Path file, OnnxMl.GraphProto.Builder graph) throws IOException {
        Files.write(file, OnnxMl.ModelProto.newBuilder().setIrVersion(8)
                .addOpsetImport(OnnxMl.OperatorSetIdProto.newBuilder().setVersion(17))
                .setGraph(graph).build().toByteArray());
        return file;
    }
}

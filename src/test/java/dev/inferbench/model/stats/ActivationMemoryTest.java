package dev.inferbench.model.stats;

import ai.onnx.proto.OnnxMl;
import ai.onnx.proto.OnnxMl.TensorProto.DataType;
import com.google.protobuf.ByteString;
import dev.inferbench.model.Architecture;
import dev.inferbench.model.Bert;
import dev.inferbench.model.OnnxExporter;
import dev.inferbench.model.ResNet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ActivationMemoryTest {
    @TempDir
    Path dir;

    /**
     * Worked by hand at batch 2 (x is float [2, 4], so a [2, 8] float tensor is 64 bytes):
     * <pre>
     *  #  node          op        allocates        live while it runs   live after
     *  0  block.target  Constant  0 (a weight)      0                    0
     *  1  block.mm      MatMul    t0 64            64                   64
     *  2  block.relu    Relu      t1 64            128                  128
     *  3  block.view    Reshape   0 (view of t1)   128                  128
     *  4  block.add     Add       t3 64            192                  128  (t0 freed; t1 lives on through the view)
     *  5  head.cast     Cast      c 128 (double)   256 (the peak)        64  (t1 and the unread c freed)
     *  6  head.sum      Add       y 64             128                   64  (t3 freed; y is the graph output)
     *  7  head.shape    Shape     s 16 (int64)     80                    64  (nothing reads s)
     * </pre>
     */
    @Test
    void handBuiltGraphHasTheBytesWorkedByHand() throws Exception {
        ActivationMemory m = ActivationMemory.of(write(handBuilt()), "hand", Map.of(), 2, 1);

        assertThat(m.layers()).extracting(ActivationMemory.Layer::allocatedBytes)
                .containsExactly(0L, 64L, 64L, 0L, 64L, 128L, 64L, 16L);
        assertThat(m.layers()).extracting(ActivationMemory.Layer::liveBytes)
                .containsExactly(0L, 64L, 128L, 128L, 192L, 256L, 128L, 80L);
        assertThat(m.layers()).extracting(ActivationMemory.Layer::liveAfterBytes)
                .containsExactly(0L, 64L, 128L, 128L, 128L, 64L, 64L, 64L);
        assertThat(m.layers().get(3).outputBytes()).as("a view's own size is shown").isEqualTo(64);
        assertThat(m.peakBytes()).isEqualTo(256);
        assertThat(m.peakLayer().node()).isEqualTo("head.cast");
        assertThat(m.peakBetweenNodesBytes()).isEqualTo(128);
        assertThat(m.largestBytes()).isEqualTo(128);
        assertThat(m.totalBytes()).isEqualTo(64 + 64 + 64 + 128 + 64 + 16);
        assertThat(m.unknown()).isZero();
        assertThat(m.modules()).containsExactly(
                new ActivationMemory.Module("block", 5, 192, 192, "block.add"),
                new ActivationMemory.Module("head", 3, 208, 256, "head.cast"));

        // at batch 4 every activation doubles; the constant's 3 int64 values do not count at any batch
        ActivationMemory four = ActivationMemory.of(write(handBuilt()), "hand", Map.of(), 4, 1);
        assertThat(four.peakBytes()).isEqualTo(512);
    }

    @Test
    void resnet50PeakLiesBetweenItsLargestTensorAndTheSumAndScalesWithTheBatch() throws Exception {
        Path file = export(ResNet.resnet50());
        ActivationMemory one = ActivationMemory.of(file, "resnet50", Map.of(), 1, 128);
        long stem = 64L * 112 * 112 * 4; // conv1's output, the largest tensor
        assertThat(one.unknown()).isZero();
        assertThat(one.largestBytes()).isEqualTo(stem);
        assertThat(one.peakBytes()).isGreaterThanOrEqualTo(one.largestBytes()).isLessThanOrEqualTo(one.totalBytes());
        // first reached at the first bottleneck's shortcut batch norm: the main branch (bn3), the shortcut's conv
        // output and its own output, 3 x 256x56x56 floats (the residual add after it holds as much)
        assertThat(one.peakBytes()).isEqualTo(3L * 256 * 56 * 56 * 4);
        assertThat(one.peakLayer().node()).isEqualTo("layer1.0.downsample.1");
        assertThat(one.layers()).filteredOn(l -> l.node().equals("layer1.0.add")).singleElement()
                .extracting(ActivationMemory.Layer::liveBytes).isEqualTo(one.peakBytes());
        assertThat(one.modules()).extracting(ActivationMemory.Module::module)
                .startsWith("", "layer1.0", "layer1.0.downsample").contains("layer4.2");
        assertThat(ActivationMemory.of(file, "resnet50", Map.of(), 4, 128).peakBytes()).isEqualTo(4 * one.peakBytes());
    }

    @Test
    void bertAttentionScoresGrowWithTheSquareOfTheSequence() throws Exception {
        Path file = export(Bert.tiny());
        ActivationMemory s64 = ActivationMemory.of(file, "bert-tiny", Map.of(), 1, 64);
        ActivationMemory s128 = ActivationMemory.of(file, "bert-tiny", Map.of(), 1, 128);
        assertThat(s128.unknown()).isZero();
        long scores = 2L * 128 * 128 * 4; // [1, heads 2, 128, 128] float
        assertThat(s128.layers()).filteredOn(l -> l.node().equals("encoder.layer.0.attention.self.softmax"))
                .singleElement().extracting(ActivationMemory.Layer::outputBytes).isEqualTo(scores);
        assertThat(s128.peakBytes()).isGreaterThanOrEqualTo(s128.largestBytes()).isLessThanOrEqualTo(s128.totalBytes());
        assertThat(s128.peakLayer().module()).isEqualTo("encoder.layer.0.intermediate");
        assertThat(s128.totalBytes()).isGreaterThan(2 * s64.totalBytes()); // the scores: 4x, the rest 2x
    }

    @Test
    void modulesFollowTheNamesOfZooNodes() {
        assertThat(LayerName.module("layer1.0.conv1")).isEqualTo("layer1.0");
        assertThat(LayerName.module("encoder.layer.0.intermediate.gelu:erf")).isEqualTo("encoder.layer.0.intermediate");
        assertThat(LayerName.layer("encoder.layer.0.intermediate.gelu:erf")).isEqualTo("encoder.layer.0.intermediate.gelu");
        assertThat(LayerName.module("/layer1/layer1.0/conv1/Conv")).isEqualTo("/layer1/layer1.0/conv1");
        assertThat(LayerName.module("Conv_0")).isEmpty();
        assertThat(LayerName.shown("")).isEqualTo(LayerName.TOP);
    }

    private Path export(Architecture arch) throws Exception {
        Path file = dir.resolve(arch.name() + ".onnx");
        Files.write(file, new OnnxExporter(1).export(arch.build()).toByteArray());
        return file;
    }

    private Path write(OnnxMl.ModelProto model) throws Exception {
        Path file = dir.resolve("hand.onnx");
        Files.write(file, model.toByteArray());
        return file;
    }

    private static OnnxMl.ModelProto handBuilt() {
        OnnxMl.GraphProto.Builder g = OnnxMl.GraphProto.newBuilder().setName("hand")
                .addInput(value("x", DataType.FLOAT, "batch", 4))
                .addOutput(value("y", DataType.FLOAT, "batch", 8))
                .addInitializer(OnnxMl.TensorProto.newBuilder().setName("W").setDataType(DataType.FLOAT_VALUE)
                        .addDims(4).addDims(8).setRawData(ByteString.copyFrom(new byte[4 * 8 * 4])));
        ByteBuffer target = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN).putLong(-1).putLong(2).putLong(4);
        g.addNode(node("block.target", "Constant", List.of(), "shape").addAttribute(OnnxMl.AttributeProto.newBuilder()
                .setName("value").setType(OnnxMl.AttributeProto.AttributeType.TENSOR).setT(OnnxMl.TensorProto.newBuilder()
                        .setDataType(DataType.INT64_VALUE).addDims(3).setRawData(ByteString.copyFrom(target.array())))));
        g.addNode(node("block.mm", "MatMul", List.of("x", "W"), "t0"));
        g.addNode(node("block.relu", "Relu", List.of("t0"), "t1"));
        g.addNode(node("block.view", "Reshape", List.of("t1", "shape"), "v"));
        g.addNode(node("block.add", "Add", List.of("t0", "t1"), "t3"));
        g.addNode(node("head.cast", "Cast", List.of("v"), "c").addAttribute(OnnxMl.AttributeProto.newBuilder()
                .setName("to").setType(OnnxMl.AttributeProto.AttributeType.INT).setI(DataType.DOUBLE_VALUE)));
        g.addNode(node("head.sum", "Add", List.of("t3", "t3"), "y"));
        g.addNode(node("head.shape", "Shape", List.of("x"), "s"));
        return OnnxMl.ModelProto.newBuilder().setIrVersion(8).setGraph(g)
                .addOpsetImport(OnnxMl.OperatorSetIdProto.newBuilder().setVersion(17)).build();
    }

    private static OnnxMl.NodeProto.Builder node(String name, String op, List<String> inputs, String output) {
        return OnnxMl.NodeProto.newBuilder().setName(name).setOpType(op).addAllInput(inputs).addOutput(output);
    }

    private static OnnxMl.ValueInfoProto value(String name, DataType type, String batch, long width) {
        OnnxMl.TensorShapeProto shape = OnnxMl.TensorShapeProto.newBuilder()
                .addDim(OnnxMl.TensorShapeProto.Dimension.newBuilder().setDimParam(batch))
                .addDim(OnnxMl.TensorShapeProto.Dimension.newBuilder().setDimValue(width)).build();
        return OnnxMl.ValueInfoProto.newBuilder().setName(name).setType(OnnxMl.TypeProto.newBuilder()
                .setTensorType(OnnxMl.TypeProto.Tensor.newBuilder().setElemType(type.getNumber()).setShape(shape))).build();
    }
}

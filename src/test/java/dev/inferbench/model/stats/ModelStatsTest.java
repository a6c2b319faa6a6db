package dev.inferbench.model.stats;

import dev.inferbench.model.Architecture;
import dev.inferbench.model.Bert;
import dev.inferbench.model.Graph;
import dev.inferbench.model.MobileNetV2;
import dev.inferbench.model.Mlp;
import dev.inferbench.model.OnnxExporter;
import dev.inferbench.model.ResNet;
import dev.inferbench.model.SequenceOps;
import dev.inferbench.model.VisionTransformer;
import dev.inferbench.tensor.TensorSpec.DType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ModelStatsTest {
    @TempDir
    Path dir;

    private ModelStats stats(Graph g, int seqLen) throws Exception {
        Path file = dir.resolve(g.name() + ".onnx");
        Files.write(file, new OnnxExporter(1).export(g).toByteArray());
        return ModelStats.of(g.name(), file, null, Map.of(), seqLen);
    }

    @Test
    void macsOfSmallGraphsByHand() throws Exception {
        // fc1 64x32 + fc2 32x10
        assertThat(stats(Mlp.tiny().build(), 1).macsPerSample()).isEqualTo(64 * 32 + 32 * 10);

        Graph conv = new Graph("conv");
        Graph.Value x = conv.input(4, 8, 8);
        x = conv.conv("grouped", x, 8, 3, 2, 1, 2, true);     // out 8x4x4, each 4/2*3*3 = 18 MACs
        x = conv.conv("depthwise", x, 8, 3, 1, 1, 8, false);  // out 8x4x4, each 1*3*3 = 9 MACs
        conv.output("y", x);
        assertThat(stats(conv, 1).macsPerSample()).isEqualTo(8 * 16 * 18 + 8 * 16 * 9);

        Graph att = new Graph("attention");
        SequenceOps s = new SequenceOps(att);
        Graph.Value ids = att.input("ids", DType.INT64, Graph.SEQ);
        Graph.Value e = s.embedding("emb", ids, 50, 8);
        Graph.Value scores = s.matmul(e, s.transpose(e, 1, 0));      // seq x 8 x seq
        att.output("y", s.matmul(scores, s.dense("proj", e, 4)));     // seq x 8 x 4 + seq x seq x 4
        ModelStats st = stats(att, 10);
        assertThat(st.macsPerSample()).isEqualTo(10 * 8 * 10 + 10 * 8 * 4 + 10 * 10 * 4);
        assertThat(st.uncounted()).isZero();
        assertThat(st.inputs()).containsExactly("ids:int64[-1, -1]");
        assertThat(st.params()).isEqualTo(50 * 8 + 8 * 4 + 4);
        // most frequent first, then by name; Identity is how Tribuo's writer names a graph output
        assertThat(st.operators()).containsExactly(Map.entry("MatMul", 3), Map.entry("Add", 1),
                Map.entry("Gather", 1), Map.entry("Identity", 1), Map.entry("Transpose", 1));
    }

    /**
     * A sequence too short for a convolution's kernel (openWakeWord's melspectrogram at 128 samples: a 512-tap
     * filter) infers a negative length: that convolution is uncounted, never a negative count.
     */
    @Test
    void aConvolutionLongerThanItsInputIsUncountedNotNegative() throws Exception {
        ai.onnx.proto.OnnxMl.GraphProto.Builder g = ai.onnx.proto.OnnxMl.GraphProto.newBuilder().setName("filter")
                .addInput(dev.inferbench.model.DynamicModels.value("x", ai.onnx.proto.OnnxMl.TensorProto.DataType.FLOAT,
                        dev.inferbench.model.DynamicModels.shape("batch", "samples")))
                .addOutput(dev.inferbench.model.DynamicModels.value("y", ai.onnx.proto.OnnxMl.TensorProto.DataType.FLOAT,
                        dev.inferbench.model.DynamicModels.shape("batch", 8L, "frames")))
                .addInitializer(ai.onnx.proto.OnnxMl.TensorProto.newBuilder().setName("axes")
                        .setDataType(ai.onnx.proto.OnnxMl.TensorProto.DataType.INT64_VALUE).addDims(1).addInt64Data(1))
                .addInitializer(ai.onnx.proto.OnnxMl.TensorProto.newBuilder().setName("w")
                        .setDataType(ai.onnx.proto.OnnxMl.TensorProto.DataType.FLOAT_VALUE).addDims(8).addDims(1)
                        .addDims(512).setRawData(com.google.protobuf.ByteString.copyFrom(new byte[8 * 512 * 4])))
                .addNode(ai.onnx.proto.OnnxMl.NodeProto.newBuilder().setOpType("Unsqueeze").addInput("x")
                        .addInput("axes").addOutput("x3"))
                .addNode(ai.onnx.proto.OnnxMl.NodeProto.newBuilder().setOpType("Conv").addInput("x3").addInput("w")
                        .addOutput("y"));
        Path file = dir.resolve("filter.onnx");
        Files.write(file, ai.onnx.proto.OnnxMl.ModelProto.newBuilder().setIrVersion(8)
                .addOpsetImport(ai.onnx.proto.OnnxMl.OperatorSetIdProto.newBuilder().setVersion(17)).setGraph(g)
                .build().toByteArray());
        ModelStats tooShort = ModelStats.of("filter", file, null, Map.of(), 128);
        assertThat(tooShort.macsPerSample()).isZero();
        assertThat(tooShort.uncounted()).isEqualTo(1);
        ModelStats enough = ModelStats.of("filter", file, null, Map.of(), 1280);
        assertThat(enough.macsPerSample()).isEqualTo(8L * (1280 - 512 + 1) * 512);
        assertThat(enough.uncounted()).isZero();
    }

    /** A file whose nodes are not in order (the float16 converter appends the input's Cast) is read in their order. */
    @Test
    void nodesWrittenOutOfOrderAreReadInTheOrderTheyRun() throws Exception {
        var f = ai.onnx.proto.OnnxMl.TensorProto.DataType.FLOAT;
        ai.onnx.proto.OnnxMl.GraphProto.Builder g = ai.onnx.proto.OnnxMl.GraphProto.newBuilder().setName("late")
                .addInput(dev.inferbench.model.DynamicModels.value("x", f,
                        dev.inferbench.model.DynamicModels.shape("batch", 1L, 8L)))
                .addOutput(dev.inferbench.model.DynamicModels.value("y", f,
                        dev.inferbench.model.DynamicModels.shape("batch", 4L, 6L)))
                .addInitializer(ai.onnx.proto.OnnxMl.TensorProto.newBuilder().setName("w")
                        .setDataType(f.getNumber()).addDims(4).addDims(1).addDims(3)
                        .setRawData(com.google.protobuf.ByteString.copyFrom(new byte[4 * 3 * 4])))
                .addNode(ai.onnx.proto.OnnxMl.NodeProto.newBuilder().setOpType("Conv").addInput("xc").addInput("w")
                        .addOutput("y"))
                .addNode(ai.onnx.proto.OnnxMl.NodeProto.newBuilder().setOpType("Cast").addInput("x").addOutput("xc")
                        .addAttribute(ai.onnx.proto.OnnxMl.AttributeProto.newBuilder().setName("to")
                                .setType(ai.onnx.proto.OnnxMl.AttributeProto.AttributeType.INT).setI(1)));
        Path file = dir.resolve("late.onnx");
        Files.write(file, ai.onnx.proto.OnnxMl.ModelProto.newBuilder().setIrVersion(8)
                .addOpsetImport(ai.onnx.proto.OnnxMl.OperatorSetIdProto.newBuilder().setVersion(17)).setGraph(g)
                .build().toByteArray());
        ModelStats st = ModelStats.of("late", file, null, Map.of(), 1);
        assertThat(st.macsPerSample()).isEqualTo(4 * 6 * 3);
        assertThat(st.uncounted()).isZero();
    }

    @Test
    void publishedMacsWithinThreePercent() throws Exception {
        assertMacs(ResNet.resnet50(), 4.09e9);
        assertMacs(MobileNetV2.mobilenetV2(), 0.30e9);
        assertMacs(VisionTransformer.vitB16(), 17.56e9);
    }

    @Test
    void bertMacsGrowWithSequenceLength() throws Exception {
        ModelStats s = stats(Bert.base().build(), 128);
        // per token: 12 layers x (4 x 768^2 + 2 x 768 x 3072 + attention 2 x 128 x 768); plus the pooler
        double perToken = 12 * (4.0 * 768 * 768 + 2.0 * 768 * 3072 + 2.0 * 128 * 768);
        assertThat((double) s.macsPerSample()).isCloseTo(128 * perToken + 768 * 768, within(1.0));
        assertThat(s.uncounted()).isZero();
        assertThat(s.operators()).containsKeys("MatMul", "LayerNormalization", "Gather", "Erf");
    }

    private void assertMacs(Architecture arch, double published) throws Exception {
        ModelStats s = stats(arch.build(), 1);
        assertThat(s.uncounted()).isZero();
        assertThat((double) s.macsPerSample()).isCloseTo(published, within(published * 0.03));
    }
}

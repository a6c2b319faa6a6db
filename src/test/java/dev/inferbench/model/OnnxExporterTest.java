package dev.inferbench.model;

import ai.onnx.proto.OnnxMl;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class OnnxExporterTest {

    private static byte[] bytes(Architecture arch, long seed) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new OnnxExporter(seed).write(arch.build(), out);
        return out.toByteArray();
    }

    @Test
    void sameSeedGivesByteIdenticalFiles() throws IOException {
        assertThat(bytes(ResNet.tiny(), 7)).isEqualTo(bytes(ResNet.tiny(), 7));
        assertThat(bytes(Mlp.tiny(), 7)).isEqualTo(bytes(Mlp.tiny(), 7));
    }

    /**
     * Golden digests at seed 7: a run in a fresh JVM (or another JDK: 17 and 25 agree) must write exactly these
     * bytes. A deliberate change to an architecture or the writer updates them.
     */
    @Test
    void filesMatchGoldenDigests() throws Exception {
        assertThat(sha256(bytes(Mlp.tiny(), 7)))
                .isEqualTo("6f2ae3f8158dc0a5bac00088a7adc76b8a0c2e288806c153214eeaa792e8a968");
        assertThat(sha256(bytes(ResNet.tiny(), 7)))
                .isEqualTo("c061b1957fcaacd0af7c527178ba14d8d7b4f3b20041f0602ecd4412ac6e3e34");
        assertThat(sha256(bytes(MobileNetV2.tiny(), 7))).isEqualTo("c175c0c8e7775adb41900873f751b9e417c5e363660aef75683703c3fb9d2d28");
        assertThat(sha256(bytes(VisionTransformer.tiny(), 7))).isEqualTo("b7dec2d5a941bef3e43b4511f7382ca58a4bd53b12365b37c57d14f961e7f549");
        assertThat(sha256(bytes(Bert.tiny(), 7))).isEqualTo("7d2c4009ca96a1c7008974fce127addf6f34e69cb2b750b4ac37f3d28bc394f2");
    }

    /**
     * Module-path node names are all that changed in the files: with Tribuo's operator-type names put back
     * ({@code Conv_0}, {@code Relu_3}) and the format key removed, each file has the digest it had before.
     */
    @Test
    void nodeNamesAreTheOnlyChange() throws Exception {
        assertThat(sha256(withTribuoNames(Mlp.tiny())))
                .isEqualTo("a0ed1a1ba0d4213c64f8c0bb2e5516bb9ad20ea66db9638223fdd64989977716");
        assertThat(sha256(withTribuoNames(ResNet.tiny())))
                .isEqualTo("3ef74aac7b172979cf1a21450757e2f5f3aa737d301c0d96deba80c6912ca42c");
        assertThat(sha256(withTribuoNames(MobileNetV2.tiny())))
                .isEqualTo("c0b2277e9b1ddc9e10b6b27438b66cf3be002ebe716565dc9719dcfe0566a2b0");
        assertThat(sha256(withTribuoNames(VisionTransformer.tiny())))
                .isEqualTo("90a24da27d4498f907376dba1bc9feb135470ad3d920a38bb38bb6f2ffd12eb1");
        assertThat(sha256(withTribuoNames(Bert.tiny())))
                .isEqualTo("9745bc0253f1fc7ad01b48185ab4542a418f76303b7818868cbbdc3cbdd386be");
    }

    @Test
    void nodesAreNamedByModulePathAndUnique() {
        OnnxMl.GraphProto g = new OnnxExporter(1).export(ResNet.resnet50().build()).getGraph();
        List<String> names = g.getNodeList().stream().map(OnnxMl.NodeProto::getName).toList();
        assertThat(names).doesNotHaveDuplicates()
                .startsWith("conv1", "bn1", "relu", "maxpool", "layer1.0.conv1", "layer1.0.bn1", "layer1.0.relu")
                .contains("layer1.0.relu_1", "layer1.0.relu_2", "layer1.0.add", "layer4.2.relu_2", "gap", "fc");
        // tensor names are Tribuo's as before: the relu of layer1.0 still writes relu.out_1
        assertThat(g.getNode(names.indexOf("layer1.0.relu")).getOutput(0)).isEqualTo("relu.out_1");

        List<String> bert = new OnnxExporter(1).export(Bert.tiny().build()).getGraph().getNodeList().stream()
                .map(OnnxMl.NodeProto::getName).toList();
        assertThat(bert).doesNotHaveDuplicates().contains("encoder.layer.1.attention.self.softmax",
                "encoder.layer.1.attention.self.query:matmul", "encoder.layer.1.attention.self.query",
                "encoder.layer.0.intermediate.gelu:erf", "encoder.layer.0.output.add", "pooler.tanh", "mask_bias:cast");
    }

    private static byte[] withTribuoNames(Architecture arch) {
        OnnxMl.ModelProto m = new OnnxExporter(7).export(arch.build());
        OnnxMl.ModelProto.Builder b = m.toBuilder().clearMetadataProps();
        m.getMetadataPropsList().stream().filter(e -> !e.getKey().equals(OnnxExporter.META_FORMAT))
                .forEach(b::addMetadataProps);
        OnnxMl.GraphProto.Builder g = b.getGraphBuilder();
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < g.getNodeCount(); i++) {
            String op = g.getNode(i).getOpType();
            g.setNode(i, g.getNode(i).toBuilder().setName(op + "_" + (counts.merge(op, 1, Integer::sum) - 1)));
        }
        return b.build().toByteArray();
    }

    private static String sha256(byte[] b) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    }

    @Test
    void seedIsRecordedInTheFile() {
        OnnxMl.ModelProto m = new OnnxExporter(42).export(Mlp.tiny().build());
        assertThat(OnnxExporter.seedOf(m)).contains(42L);
        // the one reading of the seed, which the matrix check uses on a file's metadata too
        assertThat(OnnxExporter.seedOf(Map.of(OnnxExporter.META_SEED, "42"))).contains(42L);
        assertThat(OnnxExporter.seedOf(Map.of(OnnxExporter.META_SEED, "forty-two"))).isEmpty();
        assertThat(OnnxExporter.seedOf(Map.of())).isEmpty();
    }

    @Test
    void otherSeedGivesOtherWeights() throws IOException {
        assertThat(bytes(Mlp.tiny(), 7)).isNotEqualTo(bytes(Mlp.tiny(), 8));
    }

    @Test
    void initializersHoldEveryParameterAndBuffer() {
        Graph g = ResNet.tiny().build();
        OnnxMl.ModelProto m = new OnnxExporter(1).export(g);
        long expected = g.nodes().stream().flatMap(n -> n.params().stream()).mapToLong(Graph.Param::elements).sum();
        long written = m.getGraph().getInitializerList().stream().mapToLong(t -> t.getRawData().size() / 4).sum();
        assertThat(written).isEqualTo(expected);
    }

    @Test
    void inputKeepsImageShapeWithDynamicBatch() {
        OnnxMl.ModelProto m = new OnnxExporter(1).export(ResNet.tiny().build());
        var dims = m.getGraph().getInput(0).getType().getTensorType().getShape().getDimList();
        assertThat(dims).hasSize(4);
        assertThat(dims.get(0).getDimParam()).isEqualTo("batch");
        assertThat(dims.subList(1, 4)).extracting(OnnxMl.TensorShapeProto.Dimension::getDimValue)
                .containsExactly(3L, 32L, 32L);
        assertThat(m.getOpsetImport(0).getVersion()).isEqualTo(17);
    }
}

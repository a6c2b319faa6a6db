package dev.inferbench.model;

import ai.onnx.proto.OnnxMl;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.security.MessageDigest;
import java.util.HexFormat;

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
                .isEqualTo("a0ed1a1ba0d4213c64f8c0bb2e5516bb9ad20ea66db9638223fdd64989977716");
        assertThat(sha256(bytes(ResNet.tiny(), 7)))
                .isEqualTo("3ef74aac7b172979cf1a21450757e2f5f3aa737d301c0d96deba80c6912ca42c");
        assertThat(sha256(bytes(MobileNetV2.tiny(), 7))).isEqualTo("c0b2277e9b1ddc9e10b6b27438b66cf3be002ebe716565dc9719dcfe0566a2b0");
        assertThat(sha256(bytes(VisionTransformer.tiny(), 7))).isEqualTo("90a24da27d4498f907376dba1bc9feb135470ad3d920a38bb38bb6f2ffd12eb1");
        assertThat(sha256(bytes(Bert.tiny(), 7))).isEqualTo("9745bc0253f1fc7ad01b48185ab4542a418f76303b7818868cbbdc3cbdd386be");
    }

    private static String sha256(byte[] b) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    }

    @Test
    void seedIsRecordedInTheFile() {
        OnnxMl.ModelProto m = new OnnxExporter(42).export(Mlp.tiny().build());
        assertThat(OnnxExporter.seedOf(m)).contains(42L);
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

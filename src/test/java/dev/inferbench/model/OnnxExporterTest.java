package dev.inferbench.model;

import ai.onnx.proto.OnnxMl;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;

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
        assertThat(m.getOpsetImport(0).getVersion()).isEqualTo(13);
    }
}

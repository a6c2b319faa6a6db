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

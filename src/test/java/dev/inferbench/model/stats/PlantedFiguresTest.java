package dev.inferbench.model.stats;

import ai.onnx.proto.OnnxMl.ModelProto;
import ai.onnx.proto.OnnxMl.NodeProto;
import ai.onnx.proto.OnnxMl.StringStringEntryProto;
import ai.onnx.proto.OnnxMl.TensorProto;
import dev.inferbench.model.OnnxExporter;
import dev.inferbench.model.Zoo;
import dev.inferbench.variant.Precision;
import dev.inferbench.variant.Variants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.PrintStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Planted truths for the {@code models} figures: one zoo network written as real exporters write it (weights in
 * Constant nodes, quantized, run inside an If or a Loop) holds the same weights and does the same arithmetic, so
 * each form must read the parameters and MACs of the plain file.
 */
class PlantedFiguresTest {
    private static final Set<Zoo> NETWORKS = Set.of(Zoo.RESNET_TINY, Zoo.MOBILENET_TINY, Zoo.VIT_TINY);

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = Zoo.class, names = {"RESNET_TINY", "MOBILENET_TINY", "VIT_TINY"})
    void weightsInConstantNodesAreParameters(Zoo zoo) throws Exception {
        ModelProto original = original(zoo);
        ModelStats constants = stats("constants", ExportForms.constants(original));
        assertThat(constants.params()).isPositive().isEqualTo(stats("original", original).params());
        assertSame(constants, stats("original", original));
        assertThat(constants.operators()).containsKey("Constant");
    }

    @ParameterizedTest
    @EnumSource(IntegerKernels.Form.class)
    void integerKernelsCountTheirMacs(IntegerKernels.Form form) throws Exception {
        for (Zoo zoo : NETWORKS) {
            ModelProto original = original(zoo);
            ModelProto rewritten = ExportForms.fixedBatch(IntegerKernels.apply(original, form));
            ModelStats quantized = stats(zoo.id() + "." + form, rewritten);
            assertSame(quantized, stats(zoo.id(), original));
            assertThat(quantized.operators()).doesNotContainKey("Conv")
                    .containsKey(form == IntegerKernels.Form.INTEGER ? "ConvInteger" : "QLinearConv");
            if (zoo == Zoo.VIT_TINY) {
                assertThat(quantized.operators())
                        .containsKey(form == IntegerKernels.Form.INTEGER ? "MatMulInteger" : "QLinearMatMul");
            }
        }
    }

    @Test
    void theProjectsInt8VariantReadsItsFoldedWeightsAndTheSameMacs() throws Exception {
        ModelProto original = original(Zoo.RESNET_TINY);
        Path source = write("resnet-tiny", original);
        Path int8 = Variants.ensure("resnet-tiny", source, Precision.INT8, Map.of(), 7,
                new PrintStream(OutputStream.nullOutputStream()));
        ModelStats q = ModelStats.of("int8", int8, null, Map.of(), 1);
        ModelStats o = ModelStats.of("original", source, null, Map.of(), 1);
        assertThat(q.operators()).containsKeys("QuantizeLinear", "DequantizeLinear")
                .doesNotContainKey("BatchNormalization");
        assertThat(q.macsPerSample()).isEqualTo(o.macsPerSample());
        assertThat(q.uncounted()).isZero();
        // folding keeps each conv weight and trades a BatchNormalization's four C-vectors for one conv bias
        assertThat(q.params()).isEqualTo(o.params() - foldedAway(original));
    }

    @ParameterizedTest
    @EnumSource(value = Zoo.class, names = {"RESNET_TINY", "MOBILENET_TINY", "VIT_TINY"})
    void aNetworkInsideAnIfCountsAsTheNetwork(Zoo zoo) throws Exception {
        ModelProto original = original(zoo);
        ModelStats wrapped = stats("if", ExportForms.inIf(original));
        ModelStats plain = stats("original", original);
        assertSame(wrapped, plain);
        // the network's nodes, the condition (Constant, Equal), the If, and the else-branch's Identity
        Map<String, Integer> expected = new TreeMap<>(plain.operators());
        Map.of("Constant", 1, "Equal", 1, "If", 1, "Identity", 1)
                .forEach((op, n) -> expected.merge(op, n, Integer::sum));
        assertThat(new TreeMap<>(wrapped.operators())).isEqualTo(expected);
    }

    @Test
    void aLoopCostsItsBodyOncePerKnownTripAndIsALowerBoundOtherwise() throws Exception {
        ModelProto original = original(Zoo.RESNET_TINY);
        ModelStats plain = stats("original", original);
        ModelStats thrice = stats("loop3", ExportForms.inLoop(original, 3L));
        assertThat(thrice.macsPerSample()).isEqualTo(3 * plain.macsPerSample());
        assertThat(thrice.uncounted()).isZero();
        assertThat(thrice.params()).isEqualTo(plain.params());
        ModelStats open = stats("loop", ExportForms.inLoop(original, null));
        assertThat(open.macsPerSample()).isEqualTo(plain.macsPerSample());
        assertThat(open.uncounted()).isEqualTo(1);
    }

    @Test
    void aScanCostsItsBodyOncePerFrame() throws Exception {
        ModelProto original = original(Zoo.RESNET_TINY);
        ModelStats plain = stats("original", original);
        ModelStats clip = stats("scan", ExportForms.inScan(original, 4));
        assertThat(clip.inputs()).containsExactly("clip:float32[1, 4, 3, 32, 32]");
        assertThat(clip.uncounted()).isZero();
        assertThat(clip.macsPerSample()).isEqualTo(4 * plain.macsPerSample());
        assertThat(clip.params()).isEqualTo(plain.params());
    }

    @Test
    void externalDataCountsByItsDims() throws Exception {
        ModelProto original = original(Zoo.RESNET_TINY);
        ModelProto.Builder b = original.toBuilder();
        for (TensorProto.Builder t : b.getGraphBuilder().getInitializerBuilderList()) {
            if (t.getRawData().size() > 1024) {
                t.clearRawData().setDataLocation(TensorProto.DataLocation.EXTERNAL).addExternalData(
                        StringStringEntryProto.newBuilder().setKey("location").setValue("weights.bin"));
            }
        }
        assertSame(stats("external", b.build()), stats("original", original));
    }

    /** The elements ConvFolding removes: per BatchNormalization after a bias-free Conv, 4 x C out, C in. */
    private static long foldedAway(ModelProto model) {
        long away = 0;
        for (NodeProto n : model.getGraph().getNodeList()) {
            if (n.getOpType().equals("BatchNormalization")) {
                long c = model.getGraph().getInitializerList().stream()
                        .filter(t -> t.getName().equals(n.getInput(1))).findFirst().orElseThrow().getDims(0);
                away += 3 * c;
            }
        }
        return away;
    }

    private static void assertSame(ModelStats form, ModelStats original) {
        assertThat(original.uncounted()).isZero();
        assertThat(form.uncounted()).as("uncounted nodes").isZero();
        assertThat(form.params()).isEqualTo(original.params());
        assertThat(form.macsPerSample()).isPositive().isEqualTo(original.macsPerSample());
    }

    private static ModelProto original(Zoo zoo) {
        return new OnnxExporter(1).export(zoo.architecture().build());
    }

    private ModelStats stats(String name, ModelProto model) throws Exception {
        return ModelStats.of(name, write(name, model), null, Map.of(), 1);
    }

    private Path write(String name, ModelProto model) throws Exception {
        Path file = dir.resolve(name + ".onnx");
        Files.write(file, model.toByteArray());
        return file;
    }
}

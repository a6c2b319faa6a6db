package dev.inferbench.variant;

import java.nio.file.attribute.FileTime;
import dev.inferbench.input.InputSpec;
import dev.inferbench.tensor.Half;
import ai.onnx.proto.OnnxMl.ModelProto;
import dev.inferbench.BenchException;
import dev.inferbench.engine.DecoderLayout;
import dev.inferbench.engine.Device;
import dev.inferbench.engine.EngineKind;
import dev.inferbench.engine.EngineSettings;
import dev.inferbench.engine.InferenceEngine;
import dev.inferbench.model.Zoo;
import dev.inferbench.model.ZooGenerator;
import dev.inferbench.quality.Fidelity;
import dev.inferbench.quality.FidelityProbe;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.io.PrintStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class VariantsTest {
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());
    private static final long SEED = 43;

    @TempDir
    Path dir;

    private Path zoo(Zoo arch) throws BenchException {
        Path file = dir.resolve(arch.id() + ".onnx");
        new ZooGenerator(7, QUIET).generate(arch.architecture(), file);
        return file;
    }

    @ParameterizedTest
    @CsvSource({"resnet-tiny,fp16", "resnet-tiny,int8", "mlp-tiny,fp16", "mlp-tiny,int8"})
    void everyVariantIsByteIdenticalWhenMadeTwice(String arch, String precision) throws Exception {
        Path source = zoo(Zoo.parse(arch));
        Path variant = Variants.ensure(arch, source, Precision.parse(precision), Map.of(), SEED, QUIET);
        byte[] first = Files.readAllBytes(variant);
        Files.delete(variant);
        Variants.ensure(arch, source, Precision.parse(precision), Map.of(), SEED, QUIET);
        assertThat(variant).hasFileName(arch + "." + precision + ".onnx");
        assertThat(Files.readAllBytes(variant)).isEqualTo(first);
        ModelProto proto = ModelProto.parseFrom(first);
        assertThat(Variants.meta(proto, Variants.META_SOURCE)).contains(Variants.sha256(source));
        assertThat(Variants.meta(proto, Variants.META_SEED)).contains(Long.toString(SEED));
    }

    @Test
    void aChangedSourceOrSeedMakesTheVariantAgain() throws Exception {
        Path source = zoo(Zoo.MLP_TINY);
        Path variant = Variants.ensure("m", source, Precision.INT8, Map.of(), SEED, QUIET);
        long made = Files.getLastModifiedTime(variant).toMillis();
        Files.setLastModifiedTime(variant, FileTime.fromMillis(made - 10_000));
        Variants.ensure("m", source, Precision.INT8, Map.of(), SEED, QUIET);
        assertThat(Files.getLastModifiedTime(variant).toMillis()).isEqualTo(made - 10_000);
        new ZooGenerator(8, QUIET).generate(Zoo.MLP_TINY.architecture(), source);
        Variants.ensure("m", source, Precision.INT8, Map.of(), SEED, QUIET);
        assertThat(Files.getLastModifiedTime(variant).toMillis()).isGreaterThan(made - 10_000);
        assertThat(Variants.meta(ModelProto.parseFrom(Files.readAllBytes(variant)), Variants.META_SOURCE))
                .contains(Variants.sha256(source));
    }

    @ParameterizedTest
    @CsvSource({
            // measured over 64 samples: resnet-tiny int8 100 % / 0.99999, mlp-tiny int8 100 % / 0.9999; fp16 100 % / 1.00000
            "resnet-tiny,fp16,100,0.9999", "resnet-tiny,int8,90,0.999",
            "mlp-tiny,fp16,100,0.9999", "mlp-tiny,int8,75,0.99"})
    void variantsStayCloseToTheirFp32Reference(String arch, String precision, double top1, double cosine)
            throws Exception {
        Path source = zoo(Zoo.parse(arch));
        Path variant = Variants.ensure(arch, source, Precision.parse(precision), Map.of(), SEED, QUIET);
        try (InferenceEngine engine = EngineKind.ORT.open(variant, Device.parse("cpu"), EngineSettings.DEFAULTS)) {
            Fidelity f = FidelityProbe.measure(engine, new InputSpec(arch, source, Map.of(), 1, 128, 42));
            assertThat(f.top1Agreement()).isGreaterThanOrEqualTo(top1);
            assertThat(f.cosine()).isGreaterThan(cosine);
            assertThat(f.maxAbsError()).isGreaterThan(0);
            assertThat(f.samples()).as("a batch-1 cell's fidelity stands on 64 samples, not its one").isEqualTo(64);
        }
    }

    @Test
    void theInt8VariantHoldsQdqPairsAndInt8Weights() throws Exception {
        Path source = zoo(Zoo.RESNET_TINY);
        ModelProto q = ModelProto.parseFrom(Files.readAllBytes(
                Variants.ensure("r", source, Precision.INT8, Map.of(), SEED, QUIET)));
        assertThat(q.getGraph().getNodeList()).extracting(n -> n.getOpType())
                .contains("QuantizeLinear", "DequantizeLinear", "Conv", "Gemm")
                .doesNotContain("BatchNormalization");
        assertThat(q.getGraph().getInitializerList()).anyMatch(t -> t.getDataType() == 3); // INT8
    }

    @Test
    void aModelThatIsNotFloat32IsRefusedInOneLine() throws Exception {
        Path source = zoo(Zoo.MLP_TINY);
        Path fp16 = Variants.ensure("m", source, Precision.FP16, Map.of(), SEED, QUIET);
        assertThatThrownBy(() -> Variants.ensure("m", fp16, Precision.INT8, Map.of(), SEED, QUIET))
                .isInstanceOf(BenchException.class).hasMessageContaining("is not a float32 model")
                .hasMessageContaining("expected precision=fp32, which runs the file as it is");
        // a model given by path is named once, by its path
        assertThatThrownBy(() -> Variants.ensure(fp16.toString(), fp16, Precision.FP16, Map.of(), SEED, QUIET))
                .isInstanceOf(BenchException.class).hasMessageStartingWith("model " + fp16 + " is not a float32 model");
    }

    @Test
    void anUnknownPrecisionNamesTheChoices() {
        assertThatThrownBy(() -> Precision.parse("fp8")).isInstanceOf(BenchException.class)
                .hasMessage("unknown precision 'fp8'; expected one of: fp32, fp16, int8, int4");
    }

    @Test
    void bf16IsRefusedSayingWhy() {
        assertThatThrownBy(() -> Precision.parse("bf16")).isInstanceOf(BenchException.class)
                .hasMessage("precision 'bf16' is not offered: " + DecoderLayout.NO_BFLOAT16 + ", so a bf16 variant"
                        + " would not run; expected one of: fp32, fp16, int8, int4");
    }

    @Test
    void halfConversionRoundsToNearestEven() {
        assertThat(Half.toFloat(Half.fromFloat(1.0f))).isEqualTo(1.0f);
        assertThat(Half.toFloat(Half.fromFloat(65504f))).isEqualTo(65504f);
        assertThat(Half.toFloat(Half.fromFloat(1e6f))).isInfinite();
        assertThat(Half.toFloat(Half.fromFloat(1 + 0x1p-11f))).isEqualTo(1.0f); // tie -> even
        assertThat(Half.toFloat(Half.fromFloat(1 + 0x1p-10f))).isEqualTo(1 + 0x1p-10f);
        assertThat(Half.toFloat(Half.fromFloat(0x1p-24f))).isEqualTo(0x1p-24f); // smallest subnormal
        assertThat(Half.toFloat(Half.fromFloat(-2.5f))).isEqualTo(-2.5f);
    }
}

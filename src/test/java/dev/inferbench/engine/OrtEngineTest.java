package dev.inferbench.engine;

import dev.inferbench.model.Zoo;
import org.assertj.core.api.Assertions;
import java.util.OptionalLong;
import java.util.List;
import ai.onnxruntime.OrtException;
import ai.onnx.proto.OnnxMl;
import dev.inferbench.tensor.TensorSpec;
import dev.inferbench.BenchException;
import dev.inferbench.input.SyntheticInputs;
import dev.inferbench.model.Architecture;
import dev.inferbench.model.Mlp;
import dev.inferbench.model.OnnxExporter;
import dev.inferbench.model.ResNet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class OrtEngineTest {
    @TempDir
    Path dir;

    private Path write(Architecture arch) throws IOException {
        Path file = dir.resolve(arch.name() + ".onnx");
        try (OutputStream out = Files.newOutputStream(file)) {
            new OnnxExporter(5).write(arch.build(), out);
        }
        return file;
    }

    private float[] run(Path model, int batch, long seed, long[] expectedShape) throws BenchException {
        try (InferenceEngine engine = EngineKind.ORT.open(model, Device.CPU, 1);
             PreparedInput in = engine.prepare(SyntheticInputs.create("m", engine.signature().inputs(), Map.of(),
                     batch, 128, seed));
             Outputs out = engine.run(in)) {
            assertThat(out.count()).isEqualTo(1);
            assertThat(out.shape(0)).containsExactly(expectedShape);
            return out.floats(0);
        }
    }

    @Test
    void signatureShowsDynamicBatch() throws Exception {
        try (InferenceEngine engine = EngineKind.ORT.open(write(ResNet.tiny()), Device.CPU, 0)) {
            TensorSpec input = engine.signature().inputs().get(0);
            assertThat(input.name()).isEqualTo("input");
            assertThat(input.type()).isEqualTo(TensorSpec.DType.FLOAT32);
            assertThat(input.shape()).containsExactly(-1, 3, 32, 32);
            assertThat(engine.signature().outputs().get(0).shape()).containsExactly(-1, 10);
        }
    }

    @Test
    void softmaxRowsSumToOne() throws Exception {
        for (Architecture arch : new Architecture[]{Mlp.tiny(), ResNet.tiny()}) {
            float[] probs = run(write(arch), 3, 11, new long[]{3, 10});
            for (int row = 0; row < 3; row++) {
                double sum = 0;
                for (int c = 0; c < 10; c++) {
                    assertThat(probs[row * 10 + c]).isBetween(0f, 1f);
                    sum += probs[row * 10 + c];
                }
                assertThat(sum).as(arch.name() + " row " + row).isCloseTo(1.0, within(1e-5));
            }
        }
    }

    @Test
    void sameSeedSameOutputsOtherSeedOtherOutputs() throws Exception {
        Path model = write(ResNet.tiny());
        float[] a = run(model, 2, 1, new long[]{2, 10});
        assertThat(run(model, 2, 1, new long[]{2, 10})).containsExactly(a);
        assertThat(run(model, 2, 2, new long[]{2, 10})).isNotEqualTo(a);
    }

    /**
     * From the third run on, ORT writes a prepared input's outputs into pinned tensors: every run must still give the
     * first run's values, and two inputs run in turn must each keep their own.
     */
    @Test
    void pinnedOutputsGiveTheFirstRunsValuesOnEveryRun() throws Exception {
        Path model = write(Zoo.MLP_TINY.architecture());
        try (InferenceEngine engine = EngineKind.ORT.open(model, Device.CPU, 1);
             PreparedInput a = engine.prepare(SyntheticInputs.create("m", engine.signature().inputs(), Map.of(), 2, 128, 1));
             PreparedInput b = engine.prepare(SyntheticInputs.create("m", engine.signature().inputs(), Map.of(), 2, 128, 2))) {
            float[] firstA;
            float[] firstB;
            try (Outputs out = engine.run(a)) {
                firstA = out.floats(0).clone();
            }
            try (Outputs out = engine.run(b)) {
                firstB = out.floats(0).clone();
            }
            assertThat(firstB).isNotEqualTo(firstA);
            for (int call = 2; call <= 6; call++) {
                try (Outputs out = engine.run(a)) {
                    assertThat(out.floats(0)).as("input a, call %d", call).containsExactly(firstA);
                }
                try (Outputs out = engine.run(b)) {
                    assertThat(out.floats(0)).as("input b, call %d", call).containsExactly(firstB);
                }
            }
        }
    }

    @Test
    void missingFileIsOneClearError() {
        assertThatThrownBy(() -> EngineKind.ORT.open(dir.resolve("nope.onnx"), Device.CPU, 0))
                .isInstanceOf(BenchException.class).hasMessageStartingWith("model file not found");
    }

    @Test
    void corruptFileIsOneClearError() throws IOException {
        Path bad = dir.resolve("bad.onnx");
        Files.write(bad, new byte[]{1, 2, 3, 4, 5, 6, 7, 8});
        assertThatThrownBy(() -> EngineKind.ORT.open(bad, Device.CPU, 0))
                .isInstanceOf(BenchException.class)
                .hasMessageContaining("cannot load").hasMessageContaining("expected a valid ONNX model")
                .hasCauseInstanceOf(OrtException.class)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    /** One node on a float [1, 3] input at the given opset; Gemm gets a [3, 2] weight and a [2] bias. */
    private Path oneNode(String op, int elemType, long opset) throws IOException {
        OnnxMl.TypeProto in = tensorType(elemType, 1, 3);
        OnnxMl.GraphProto.Builder g = OnnxMl.GraphProto.newBuilder().setName(op)
                .addInput(OnnxMl.ValueInfoProto.newBuilder().setName("x").setType(in));
        OnnxMl.NodeProto.Builder node = OnnxMl.NodeProto.newBuilder().setOpType(op).addInput("x").addOutput("y");
        if (op.equals("Gemm")) {
            g.addInitializer(OnnxMl.TensorProto.newBuilder().setName("w").addDims(3).addDims(2)
                    .setDataType(elemType).addAllFloatData(List.of(1f, 2f, 3f, 4f, 5f, 6f)));
            g.addInitializer(OnnxMl.TensorProto.newBuilder().setName("b").addDims(2)
                    .setDataType(elemType).addAllFloatData(List.of(0.5f, -0.5f)));
            // IR version 3 lists initializers among the inputs (onnx's checker and converter insist); opset 6's Gemm
            // broadcasts C only when told to (the attribute went away in Gemm-7)
            g.addInput(OnnxMl.ValueInfoProto.newBuilder().setName("w").setType(tensorType(elemType, 3, 2)))
                    .addInput(OnnxMl.ValueInfoProto.newBuilder().setName("b").setType(tensorType(elemType, 2)));
            node.addInput("w").addInput("b").addAttribute(OnnxMl.AttributeProto.newBuilder().setName("broadcast")
                    .setType(OnnxMl.AttributeProto.AttributeType.INT).setI(1));
        }
        g.addNode(node).addOutput(OnnxMl.ValueInfoProto.newBuilder().setName("y")
                .setType(tensorType(elemType, 1, op.equals("Gemm") ? 2 : 3)));
        Path file = dir.resolve(op + "-opset" + opset + ".onnx");
        Files.write(file, OnnxMl.ModelProto.newBuilder().setIrVersion(opset < 7 ? 3 : 8).setGraph(g)
                .addOpsetImport(OnnxMl.OperatorSetIdProto.newBuilder().setDomain("ai.onnx.ml").setVersion(1))
                .addOpsetImport(OnnxMl.OperatorSetIdProto.newBuilder().setDomain("").setVersion(opset))
                .build().toByteArray());
        return file;
    }

    private static OnnxMl.TypeProto tensorType(int elemType, long... dims) {
        OnnxMl.TensorShapeProto.Builder shape = OnnxMl.TensorShapeProto.newBuilder();
        for (long d : dims) {
            shape.addDim(OnnxMl.TensorShapeProto.Dimension.newBuilder().setDimValue(d));
        }
        return OnnxMl.TypeProto.newBuilder().setTensorType(OnnxMl.TypeProto.Tensor.newBuilder()
                .setElemType(elemType).setShape(shape)).build();
    }

    /** A valid model of opset 6 is not "an invalid ONNX model": ORT 1.29 dropped the Gemm-6 kernel. */
    @Test
    void anOldOpsetNamesTheOpsetTheMissingKernelAndTheConversion() throws Exception {
        Path model = oneNode("Gemm", OnnxMl.TensorProto.DataType.FLOAT.getNumber(), 6);
        assertThatThrownBy(() -> EngineKind.ORT.open(model, Device.CPU, 0))
                .isInstanceOf(BenchException.class)
                .hasCauseInstanceOf(OrtException.class)
                .hasMessageContaining("cannot load " + model + " with engine 'ort': ")
                .hasMessageContaining("Could not find an implementation for Gemm(6)")
                .hasMessageContaining("; expected a model of opset 7 or newer, the oldest ONNX Runtime 1.29.0"
                        + " guarantees, found opset 6 (ai.onnx), whose Gemm version 6 it has no kernel for:"
                        + " convert it with onnx's version converter (python -c \"import onnx; from onnx import"
                        + " version_converter as vc; onnx.save(vc.convert_version(onnx.load('" + model + "'), 17), '"
                        + dir.resolve("Gemm-opset6-opset17.onnx") + "')\") or export it again with a newer opset")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n").doesNotContain("valid ONNX model"));
    }

    /** A missing kernel at a current opset is about the node's types: a newer opset would not help. */
    @Test
    void aMissingKernelAtACurrentOpsetNamesTheOperatorNotAConversion() throws Exception {
        Path model = oneNode("Erf", OnnxMl.TensorProto.DataType.DOUBLE.getNumber(), 13);
        assertThatThrownBy(() -> EngineKind.ORT.open(model, Device.CPU, 0))
                .isInstanceOf(BenchException.class)
                .hasMessageContaining("; expected nodes that ONNX Runtime 1.29.0 has kernels for, found Erf version 13"
                        + " (model opset 13, ai.onnx), which it has no kernel for with this node's input types")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("version_converter"));
    }

    @Test
    void theOpsetIsTheDefaultDomainsAndUnknownWhenTheFileSaysNone() throws Exception {
        assertThat(OnnxFile.opset(oneNode("Gemm", OnnxMl.TensorProto.DataType.FLOAT.getNumber(), 6))).hasValue(6);
        assertThat(OnnxFile.opset(write(Mlp.tiny()))).hasValue(17); // the zoo's opset
        Path bad = Files.write(dir.resolve("bad.onnx"), new byte[]{1, 2, 3, 4, 5, 6, 7, 8});
        assertThat(OnnxFile.opset(bad)).isEmpty();
        Path customOnly = dir.resolve("custom.onnx");
        Files.write(customOnly, OnnxMl.ModelProto.newBuilder().addOpsetImport(OnnxMl.OperatorSetIdProto.newBuilder()
                .setDomain("com.microsoft").setVersion(1)).build().toByteArray());
        assertThat(OnnxFile.opset(customOnly)).isEmpty();
        // an old opset explains any load failure; without a missing kernel or an old opset the old words stay
        assertThat(OrtLoadFailure.expected(bad, "some other failure", OptionalLong.of(5), "1.29.0"))
                .startsWith("; expected a model of opset 7 or newer").contains("found opset 5 (ai.onnx):");
        assertThat(OrtLoadFailure.expected(bad, "some other failure", OptionalLong.of(13), "1.29.0"))
                .isEqualTo("; expected a valid ONNX model");
    }

    @Test
    void cudaOnTheCpuRuntimeIsRefusedWithTheChoices() throws Exception {
        Path model = write(Mlp.tiny());
        assertThatThrownBy(() -> EngineKind.ORT.open(model, Device.parse("cuda"), 0))
                .isInstanceOf(BenchException.class)
                .hasMessageContaining("device 'cuda:0' is not available to engine 'ort'")
                .hasMessageEndingWith("runs on: cpu");
    }

    @Test
    void unknownNamesListTheChoices() {
        assertThatThrownBy(() -> EngineKind.parse("onnx")).hasMessage("unknown engine 'onnx'; expected one of: ort, djl-ort, djl-pytorch, stub");
        assertThatThrownBy(() -> Device.parse("tpu")).hasMessage("unknown device 'tpu'; expected one of: cpu, cuda, cuda:N");
        assertThatThrownBy(() -> Device.parse("cuda:x")).hasMessageContaining("unknown device 'cuda:x'");
    }

    @Test
    void closeIsIdempotent() throws Exception {
        InferenceEngine engine = EngineKind.ORT.open(write(Mlp.tiny()), Device.CPU, 0);
        engine.close();
        engine.close();
        assertThatThrownBy(() -> engine.prepare(List.of())).isInstanceOf(IllegalStateException.class);
    }

    /** ORT's load errors start with a long C++ signature; the cause at the end must survive the shortening. */
    @org.junit.jupiter.api.Test
    void longOrtMessagesKeepTheirCause() {
        String message = "Load model failed:/onnxruntime_src/graph.cc:1421 " + "onnxruntime::Graph::Graph(x) ".repeat(40)
                + "[ONNXRuntimeError] : 1 : FAIL : Tensor element type mismatch. 10 != 1\nsecond line";
        String line = OrtEngine.firstLine(message);
        Assertions.assertThat(line).startsWith("Load model failed:")
                .endsWith("Tensor element type mismatch. 10 != 1").hasSizeLessThan(620).doesNotContain("second line");
    }
}

package dev.inferbench.cli;

import ai.onnx.proto.OnnxMl;
import ai.onnx.proto.OnnxMl.TensorProto;
import com.google.protobuf.ByteString;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.engine.TorchScriptFixture;
import dev.inferbench.model.Zoo;
import dev.inferbench.model.ZooGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * verify's exit codes on a model folder in the ONNX model zoo's layout (a Relu model with one test set), on a
 * TorchScript file that no reference engine reads, and on an ONNX export that libtorch cannot read.
 */
class VerifyCommandTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int verify(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "verify";
        System.arraycopy(args, 0, all, 1, args.length);
        return new Main(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)).run(all);
    }

    private Path reluModel(float[] input, float[] expected) throws IOException {
        Path model = Files.createDirectories(dir.resolve("relu"));
        OnnxMl.TypeProto type = OnnxMl.TypeProto.newBuilder().setTensorType(OnnxMl.TypeProto.Tensor.newBuilder()
                .setElemType(TensorProto.DataType.FLOAT.getNumber()).setShape(OnnxMl.TensorShapeProto.newBuilder()
                        .addDim(OnnxMl.TensorShapeProto.Dimension.newBuilder().setDimParam("batch"))
                        .addDim(OnnxMl.TensorShapeProto.Dimension.newBuilder().setDimValue(input.length)))).build();
        OnnxMl.GraphProto graph = OnnxMl.GraphProto.newBuilder().setName("relu")
                .addInput(OnnxMl.ValueInfoProto.newBuilder().setName("x").setType(type))
                .addNode(OnnxMl.NodeProto.newBuilder().setOpType("Relu").addInput("x").addOutput("y"))
                .addOutput(OnnxMl.ValueInfoProto.newBuilder().setName("y").setType(type)).build();
        Files.write(model.resolve("model.onnx"), OnnxMl.ModelProto.newBuilder().setIrVersion(8).setGraph(graph)
                .addOpsetImport(OnnxMl.OperatorSetIdProto.newBuilder().setVersion(13)).build().toByteArray());
        Path set = Files.createDirectories(model.resolve("test_data_set_0"));
        Files.write(set.resolve("input_0.pb"), tensor(input).toByteArray());
        Files.write(set.resolve("output_0.pb"), tensor(expected).toByteArray());
        return model;
    }

    private static TensorProto tensor(float[] v) {
        ByteBuffer raw = ByteBuffer.allocate(v.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        raw.asFloatBuffer().put(v);
        return TensorProto.newBuilder().setDataType(TensorProto.DataType.FLOAT.getNumber()).addDims(1)
                .addDims(v.length).setRawData(ByteString.copyFrom(raw)).build();
    }

    @Test
    void agreeingOutputsExitZeroAndWriteBothFiles() throws Exception {
        Path model = reluModel(new float[]{-1, 0.5f, 2}, new float[]{0, 0.5f, 2});
        assertThat(verify(model.toString(), "--out", dir.resolve("m").toString())).as("%s%s", out, err).isEqualTo(0);
        assertThat(out.toString()).contains("| relu | ort | cpu | agrees |").contains("| relu | ort | cuda | unavailable |")
                .contains("Everything that could run agrees; 2 not applicable (the engine does not read this kind of"
                        + " file); 2 unavailable (no such device, or not in this build).");
        assertThat(Files.readString(dir.resolve("m/verify.json"))).contains("\"allAgree\" : true");
        assertThat(Files.readString(dir.resolve("m/verify.md"))).contains("| relu | ort | cpu | agrees |");
    }

    @Test
    void anOutputOutsideTheToleranceExitsOne() throws Exception {
        Path model = reluModel(new float[]{-1, 0.5f, 2}, new float[]{0, 0.5f, 2.01f});
        assertThat(verify(model.resolve("test_data_set_0").toString(), "--out", dir.resolve("m").toString()))
                .isEqualTo(1);
        assertThat(out.toString()).contains("| relu | ort | cpu | disagrees | test_data_set_0 output 0: 1 of 3 values off");
        assertThat(verify(model.toString(), "--rtol", "0.01", "--out", dir.resolve("m").toString())).as("%s%s", out, err).isEqualTo(0);
    }

    /** The ONNX model zoo's layout named by its file: the test set beside it is used, not synthetic inputs. */
    @Test
    void anOnnxFileIsCheckedAgainstTheTestSetsBesideIt() throws Exception {
        // 2.01 where Relu gives 2: synthetic inputs, checked against ort itself, would agree
        Path model = reluModel(new float[]{-1, 0.5f, 2}, new float[]{0, 0.5f, 2.01f}).resolve("model.onnx");
        assertThat(verify(model.toString(), "--out", dir.resolve("m").toString())).as("%s%s", out, err).isEqualTo(1);
        assertThat(out.toString()).contains("| model.onnx | ort | cpu | disagrees | test_data_set_0 output 0: 1 of 3"
                + " values off");
        assertThat(err.toString()).contains("verifying model.onnx (" + model + ") on test_data_set_0");
        out.reset();
        assertThat(verify(model.toString(), "--rtol", "0.01", "--out", dir.resolve("m").toString())).isEqualTo(0);
        assertThat(out.toString()).contains("| model.onnx | ort | cpu | agrees | 1 output(s) within rtol 0.01, atol"
                + " 1.0E-7 of test_data_set_0 |");
    }

    /** Test sets beside model.onnx are not another file's: that one runs on synthetic inputs, and says so. */
    @Test
    void anotherFileBesideAModelsTestSetsRunsOnSyntheticInputs() throws Exception {
        Path folder = reluModel(new float[]{-1, 0.5f, 2}, new float[]{0, 0.5f, 2.01f});
        Path other = Files.copy(folder.resolve("model.onnx"), folder.resolve("other.onnx"));
        assertThat(verify(other.toString(), "--out", dir.resolve("m").toString())).as("%s%s", out, err).isEqualTo(0);
        assertThat(err.toString()).contains("not using the test_data_set_N folders beside " + other
                + ": they are model.onnx's; verifying other.onnx on synthetic inputs")
                .contains("verifying other.onnx (" + other + ") on seeded synthetic inputs");
        assertThat(out.toString()).contains("| other.onnx | ort | cpu | agrees | 1 output(s) within rtol 0.001, atol"
                + " 1.0E-7 or 1.0E-5 x the largest output of ort cpu fp32 on seeded synthetic inputs |");
    }

    /**
     * Only djl-pytorch reads a .pt file and it has no test set: the reference (ort on cpu) cannot read it, so the
     * row that ran has nothing to be compared against. It "runs"; that is no failure, and verify exits 0.
     */
    @Test
    void aTorchScriptFileWithNothingToCompareAgainstRunsAndExitsZero() throws Exception {
        Path pt = TorchScriptFixture.reluModule(dir.resolve("relu.pt"));
        Path config = dir.resolve("b.properties");
        Files.writeString(config, "model.relu.file=" + pt + "\nmodel.relu.inputs=x=6\n");
        System.setProperty(BenchConfig.CONFIG_PROPERTY, config.toString());
        try {
            assertThat(verify("relu", "--out", dir.resolve("m").toString())).as("%s%s", out, err).isEqualTo(0);
        } finally {
            System.clearProperty(BenchConfig.CONFIG_PROPERTY);
        }
        assertThat(out.toString()).contains("| relu | djl-pytorch | cpu | runs | ran; no test set, and the reference"
                        + " (ort on cpu) cannot read this file: nothing to compare the outputs against |")
                .contains("| relu | ort | cpu | not applicable | engine 'ort' cannot read " + pt + ": it is a"
                        + " TorchScript file").contains("| relu | djl-ort | cuda | not applicable |")
                .contains("| relu | djl-pytorch | cuda | unavailable |").doesNotContain("| failed |")
                .contains("Everything that could run agrees; 1 ran with nothing to compare against; 4 not applicable");
        assertThat(Files.readString(dir.resolve("m/verify.json"))).contains("\"allAgree\" : true")
                .contains("\"result\" : \"runs\"");
    }

    /**
     * A real export that is not a zoo model (a zoo file with its metadata stripped): libtorch has no ONNX importer, so
     * djl-pytorch's rows are "not applicable", with the reason, and verify exits 0 on the rows that agree.
     */
    @Test
    void anEngineThatCannotReadTheFormatIsNotApplicableAndExitsZero() throws Exception {
        Path zoo = dir.resolve("mlp-tiny.onnx");
        new ZooGenerator(7, new PrintStream(err, true, StandardCharsets.UTF_8))
                .generate(Zoo.parse("mlp-tiny").architecture(), zoo);
        Path foreign = dir.resolve("exported.onnx");
        Files.write(foreign, OnnxMl.ModelProto.parseFrom(Files.readAllBytes(zoo)).toBuilder().clearMetadataProps()
                .build().toByteArray());
        assertThat(verify(foreign.toString(), "--out", dir.resolve("m").toString())).as("%s%s", out, err).isEqualTo(0);
        assertThat(out.toString()).contains("| exported.onnx | ort | cpu | agrees |")
                .contains("| exported.onnx | djl-pytorch | cpu | not applicable | engine 'djl-pytorch' cannot read "
                        + foreign + ": libtorch has no ONNX importer and the file is not an inferbench zoo model")
                .contains("| exported.onnx | djl-pytorch | cuda | not applicable |")
                .doesNotContain("| failed |").doesNotContain("disagree or failed")
                .contains("Everything that could run agrees; 2 not applicable");
        assertThat(Files.readString(dir.resolve("m/verify.json"))).contains("\"allAgree\" : true")
                .contains("\"result\" : \"not applicable\"");
    }

    @Test
    void aTestSetWithMissingFilesOrAnUnknownModelExitsTwoInOneLine() throws Exception {
        Path model = reluModel(new float[]{1}, new float[]{1});
        Files.delete(model.resolve("test_data_set_0/input_0.pb"));
        Files.write(model.resolve("test_data_set_0/input_1.pb"), tensor(new float[]{1}).toByteArray());
        assertThat(verify(model.toString(), "--out", dir.resolve("m").toString())).isEqualTo(2);
        assertThat(err.toString()).contains("has no input_0.pb but has input_1.pb");
        err.reset();
        assertThat(verify("no-such-model")).isEqualTo(2);
        assertThat(err.toString()).contains("no-such-model");
    }
}

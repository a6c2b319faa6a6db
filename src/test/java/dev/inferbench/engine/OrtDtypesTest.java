package dev.inferbench.engine;

import ai.onnx.proto.OnnxMl;
import ai.onnx.proto.OnnxMl.TensorProto.DataType;
import dev.inferbench.input.SyntheticInputs;
import dev.inferbench.tensor.TensorSpec.DType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Every input type inferbench synthesizes reaches ONNX Runtime as that type: a Cast-to-float model per type. */
class OrtDtypesTest {

    @ParameterizedTest
    @CsvSource({"FLOAT, FLOAT32", "FLOAT16, FLOAT16", "INT64, INT64", "INT32, INT32", "BOOL, BOOL", "UINT8, UINT8"})
    void eachTypeRunsThroughACastModel(DataType onnxType, DType expected, @TempDir Path dir) throws Exception {
        Path file = dir.resolve("cast.onnx");
        Files.write(file, castModel(onnxType).toByteArray());
        try (InferenceEngine engine = EngineKind.ORT.open(file, Device.CPU, 1)) {
            assertThat(engine.signature().inputs().get(0).type()).isEqualTo(expected);
            try (PreparedInput in = engine.prepare(SyntheticInputs.create("cast", engine.signature().inputs(),
                    Map.of(), 2, 5, 1));
                 Outputs out = engine.run(in)) {
                assertThat(out.shape(0)).containsExactly(2, 5);
                float[] values = out.floats(0);
                assertThat(values).hasSize(10);
                for (float v : values) {
                    switch (expected) {
                        case FLOAT32, FLOAT16 -> assertThat(v).isBetween(-1f, 1f);
                        case BOOL -> assertThat(v).isEqualTo(1f);
                        case UINT8 -> assertThat(v).isBetween(0f, 255f);
                        default -> assertThat(v).isBetween(0f, SyntheticInputs.TOKEN_RANGE - 1f);
                    }
                }
            }
        }
    }

    /** y = Cast(x, float) with x of the given type, shape [batch, seq], and a name with a slash. */
    private static OnnxMl.ModelProto castModel(DataType type) {
        OnnxMl.TensorShapeProto shape = OnnxMl.TensorShapeProto.newBuilder()
                .addDim(OnnxMl.TensorShapeProto.Dimension.newBuilder().setDimParam("batch"))
                .addDim(OnnxMl.TensorShapeProto.Dimension.newBuilder().setDimParam("seq")).build();
        return OnnxMl.ModelProto.newBuilder().setIrVersion(8)
                .addOpsetImport(OnnxMl.OperatorSetIdProto.newBuilder().setVersion(17))
                .setGraph(OnnxMl.GraphProto.newBuilder().setName("cast")
                        .addInput(value("gpu_0/data_0", type, shape))
                        .addOutput(value("y", DataType.FLOAT, shape))
                        .addNode(OnnxMl.NodeProto.newBuilder().setOpType("Cast").addInput("gpu_0/data_0").addOutput("y")
                                .addAttribute(OnnxMl.AttributeProto.newBuilder().setName("to")
                                        .setType(OnnxMl.AttributeProto.AttributeType.INT)
                                        .setI(DataType.FLOAT.getNumber()))))
                .build();
    }

    private static OnnxMl.ValueInfoProto value(String name, DataType type, OnnxMl.TensorShapeProto shape) {
        return OnnxMl.ValueInfoProto.newBuilder().setName(name).setType(OnnxMl.TypeProto.newBuilder()
                .setTensorType(OnnxMl.TypeProto.Tensor.newBuilder().setElemType(type.getNumber()).setShape(shape)))
                .build();
    }
}

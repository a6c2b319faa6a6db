package dev.inferbench.model;

import ai.onnx.proto.OnnxMl;
import ai.onnx.proto.OnnxMl.TensorProto.DataType;
import com.google.protobuf.ByteString;
import dev.inferbench.tensor.TensorSpec;
import dev.inferbench.tensor.TensorSpec.DType;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OnnxReaderTest {
    private static final int BIG = 2000; // floats: 8,000 bytes of raw data, over what a header keeps

    /** A graph x[N,4] -> Reshape(x, shape) -> MatMul(w) -> y, its weight also listed as an input (old exporters). */
    private static byte[] model() {
        ByteBuffer weights = ByteBuffer.allocate(BIG * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < BIG; i++) {
            weights.putFloat(i * 0.5f);
        }
        ByteBuffer shape = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putLong(-1).putLong(4);
        OnnxMl.GraphProto graph = OnnxMl.GraphProto.newBuilder().setName("g")
                .addInput(value("x", DataType.UINT8_VALUE, -1, 4))
                .addInput(value("w", DataType.FLOAT_VALUE, 4, 500))
                .addOutput(value("y", DataType.FLOAT_VALUE, -1, 500))
                .addValueInfo(value("r", DataType.UINT8_VALUE, -1, 4))
                .addNode(OnnxMl.NodeProto.newBuilder().setOpType("Reshape").addInput("x").addInput("shape")
                        .addOutput("r"))
                .addNode(OnnxMl.NodeProto.newBuilder().setOpType("MatMul").addInput("r").addInput("w").addOutput("y"))
                .addInitializer(OnnxMl.TensorProto.newBuilder().setName("w").addDims(4).addDims(500)
                        .setDataType(DataType.FLOAT_VALUE).setRawData(ByteString.copyFrom(weights.array())))
                .addInitializer(OnnxMl.TensorProto.newBuilder().setName("shape").addDims(2)
                        .setDataType(DataType.INT64_VALUE).setRawData(ByteString.copyFrom(shape.array())))
                .addInitializer(OnnxMl.TensorProto.newBuilder().setName("axes").addDims(2)
                        .setDataType(DataType.INT32_VALUE).addInt32Data(0).addInt32Data(-1))
                .build();
        return OnnxMl.ModelProto.newBuilder().setIrVersion(3).setGraph(graph)
                .addOpsetImport(OnnxMl.OperatorSetIdProto.newBuilder().setDomain("com.microsoft").setVersion(1))
                .addOpsetImport(OnnxMl.OperatorSetIdProto.newBuilder().setDomain("ai.onnx").setVersion(13))
                .addMetadataProps(OnnxMl.StringStringEntryProto.newBuilder().setKey("k").setValue("v"))
                .build().toByteArray();
    }

    private static OnnxMl.ValueInfoProto value(String name, int elemType, long... dims) {
        OnnxMl.TensorShapeProto.Builder shape = OnnxMl.TensorShapeProto.newBuilder();
        for (long d : dims) {
            shape.addDim(d < 0 ? OnnxMl.TensorShapeProto.Dimension.newBuilder().setDimParam("batch")
                    : OnnxMl.TensorShapeProto.Dimension.newBuilder().setDimValue(d));
        }
        return OnnxMl.ValueInfoProto.newBuilder().setName(name).setType(OnnxMl.TypeProto.newBuilder()
                .setTensorType(OnnxMl.TypeProto.Tensor.newBuilder().setElemType(elemType).setShape(shape))).build();
    }

    private static OnnxReader.Contents read(OnnxReader.Depth depth) throws IOException {
        return OnnxReader.read(new ByteArrayInputStream(model()), depth);
    }

    @Test
    void theModelDepthReadsMetadataAndOpsetsAndSkipsTheGraph() throws IOException {
        OnnxReader.Contents c = read(OnnxReader.Depth.MODEL);
        assertThat(c.metadata()).containsExactly(java.util.Map.entry("k", "v"));
        assertThat(c.opset()).hasValue(13);
        assertThat(c.inputs()).isEmpty();
        assertThat(c.nodes()).isEmpty();
        assertThat(c.initializers()).isEmpty();
    }

    @Test
    void theGraphDepthKeepsHeadersAndSmallIntegersButNoWeights() throws IOException {
        OnnxReader.Contents c = read(OnnxReader.Depth.GRAPH);
        assertThat(c.inputs()).extracting(OnnxMl.ValueInfoProto::getName).containsExactly("x");
        assertThat(c.outputs()).extracting(OnnxMl.ValueInfoProto::getName).containsExactly("y");
        assertThat(c.valueInfo()).extracting(OnnxMl.ValueInfoProto::getName).containsExactly("r");
        assertThat(c.nodes()).extracting(OnnxMl.NodeProto::getOpType).containsExactly("Reshape", "MatMul");
        assertThat(c.initializers()).containsOnlyKeys("w", "shape", "axes");
        OnnxReader.Initializer w = c.initializers().get("w");
        assertThat(w.dataType()).isEqualTo(DataType.FLOAT_VALUE);
        assertThat(w.dims()).containsExactly(4, 500);
        assertThat(w.elements()).isEqualTo(BIG);
        assertThat(w.ints()).isNull();
        assertThat(c.initializers().get("shape").ints()).containsExactly(-1, 4);
        assertThat(c.initializers().get("axes").ints()).containsExactly(0, -1);
        assertThat(c.weights()).isEmpty();
    }

    @Test
    void theWeightsDepthKeepsEachInitializerWhole() throws IOException {
        OnnxReader.Contents c = read(OnnxReader.Depth.WEIGHTS);
        assertThat(c.initializers().get("shape").ints()).containsExactly(-1, 4);
        assertThat(c.weights()).containsOnlyKeys("w", "shape", "axes");
        ByteBuffer w = c.weights().get("w").getRawData().asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        assertThat(w.remaining()).isEqualTo(BIG * 4);
        assertThat(w.getFloat((BIG - 1) * 4)).isEqualTo((BIG - 1) * 0.5f);
    }

    @Test
    void aSpecKeepsTheTypeAndMarksDynamicDimensions() throws IOException {
        TensorSpec x = OnnxReader.spec(read(OnnxReader.Depth.GRAPH).inputs().get(0));
        assertThat(x.type()).isEqualTo(DType.UINT8);
        assertThat(x.shape()).containsExactly(-1, 4);
        OnnxMl.ValueInfoProto sequence = OnnxMl.ValueInfoProto.newBuilder().setName("s").build();
        assertThat(OnnxReader.spec(sequence).type()).isEqualTo(DType.OTHER);
        assertThat(OnnxReader.spec(sequence).shape()).isEmpty();
    }

    @Test
    void aFileThatIsNotProtobufFails() {
        assertThatThrownBy(() -> OnnxReader.read(new ByteArrayInputStream(new byte[]{1, 2, 3, 4, 5, 6, 7, 8}),
                OnnxReader.Depth.GRAPH)).isInstanceOf(IOException.class);
    }
}

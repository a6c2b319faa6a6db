package dev.inferbench.engine;

import ai.onnx.proto.OnnxMl.AttributeProto;
import ai.onnx.proto.OnnxMl.GraphProto;
import ai.onnx.proto.OnnxMl.ModelProto;
import ai.onnx.proto.OnnxMl.NodeProto;
import ai.onnx.proto.OnnxMl.OperatorSetIdProto;
import ai.onnx.proto.OnnxMl.TensorProto;
import ai.onnx.proto.OnnxMl.TensorShapeProto;
import ai.onnx.proto.OnnxMl.TypeProto;
import ai.onnx.proto.OnnxMl.ValueInfoProto;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What {@link DecoderLayout#NO_BFLOAT16} claims, asked of the ONNX Runtime the build ships: a one-node bfloat16 model
 * of each of a decoder's arithmetic operators has no CPU kernel (the session is refused), while a Cast to and from
 * bfloat16 has one (so the refusals are the operators', not of bfloat16 tensors as such). When an upgrade brings the
 * kernels, this fails, and bf16 decoders can be tried again.
 */
class Bf16KernelsTest {
    private static final int BF16 = TensorProto.DataType.BFLOAT16.getNumber();
    private static final int FLOAT = TensorProto.DataType.FLOAT.getNumber();
    private static final int BOOL = TensorProto.DataType.BOOL.getNumber();

    @Test
    void theCpuProviderHasNoBfloat16ArithmeticButCasts() throws Exception {
        List<String> refused = new ArrayList<>();
        for (String op : List.of("MatMul", "Add", "Mul", "Div", "Softmax", "Sqrt", "Sigmoid")) {
            int[] in = op.equals("MatMul") || op.equals("Add") || op.equals("Mul") || op.equals("Div")
                    ? new int[]{BF16, BF16} : new int[]{BF16};
            if (!runs(op, in, BF16, null)) {
                refused.add(op);
            }
        }
        if (!runs("Where", new int[]{BOOL, BF16, BF16}, BF16, null)) {
            refused.add("Where");
        }
        assertThat(refused).containsExactly("MatMul", "Add", "Mul", "Div", "Softmax", "Sqrt", "Sigmoid", "Where");
        assertThat(runs("Cast", new int[]{BF16}, FLOAT, FLOAT)).isTrue();
        assertThat(runs("Cast", new int[]{FLOAT}, BF16, BF16)).isTrue();
    }

    /** Whether ONNX Runtime makes a CPU session of one {@code op} node over [2, 2] inputs of the given types. */
    private static boolean runs(String op, int[] inputs, int output, Integer castTo) throws Exception {
        NodeProto.Builder n = NodeProto.newBuilder().setOpType(op).setName(op).addOutput("y");
        GraphProto.Builder g = GraphProto.newBuilder().setName(op);
        for (int i = 0; i < inputs.length; i++) {
            n.addInput("x" + i);
            g.addInput(value("x" + i, inputs[i]));
        }
        if (castTo != null) {
            n.addAttribute(AttributeProto.newBuilder().setName("to").setType(AttributeProto.AttributeType.INT)
                    .setI(castTo));
        }
        ModelProto m = ModelProto.newBuilder().setIrVersion(8)
                .addOpsetImport(OperatorSetIdProto.newBuilder().setVersion(17))
                .setGraph(g.addNode(n).addOutput(value("y", output))).build();
        try (OrtSession.SessionOptions o = new OrtSession.SessionOptions();
             OrtSession s = OrtEnvironment.getEnvironment().createSession(m.toByteArray(), o)) {
            return s.getNumInputs() == inputs.length;
        } catch (OrtException e) {
            assertThat(e.getMessage()).as(op).contains("Could not find an implementation for");
            return false;
        }
    }

    private static ValueInfoProto value(String name, int type) {
        TensorShapeProto.Builder shape = TensorShapeProto.newBuilder()
                .addDim(TensorShapeProto.Dimension.newBuilder().setDimValue(2))
                .addDim(TensorShapeProto.Dimension.newBuilder().setDimValue(2));
        return ValueInfoProto.newBuilder().setName(name).setType(TypeProto.newBuilder()
                .setTensorType(TypeProto.Tensor.newBuilder().setElemType(type).setShape(shape))).build();
    }
}

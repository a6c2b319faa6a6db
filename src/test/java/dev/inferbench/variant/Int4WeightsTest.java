package dev.inferbench.variant;

import ai.onnx.proto.OnnxMl.GraphProto;
import ai.onnx.proto.OnnxMl.ModelProto;
import ai.onnx.proto.OnnxMl.OperatorSetIdProto;
import ai.onnx.proto.OnnxMl.TensorProto;
import ai.onnx.proto.OnnxMl.TensorShapeProto;
import ai.onnx.proto.OnnxMl.TypeProto;
import ai.onnx.proto.OnnxMl.ValueInfoProto;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtSession;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.FloatBuffer;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The int4 weights as ONNX Runtime reads them: a MatMulNBits node over {@link Int4Weights} (as the int4 variant writes
 * it) against a plain Java dequantize-then-matmul of the same weights. A packing ONNX Runtime read otherwise (nibbles
 * swapped, blocks or zero points out of place) gives other numbers; the test shows that swapping the nibbles does.
 */
class Int4WeightsTest {
    private static final OrtEnvironment ENV = OrtEnvironment.getEnvironment();

    @ParameterizedTest(name = "K {0}, N {1}, block {2}, symmetric {3}")
    @CsvSource({
            "64, 24, 32, true",
            "64, 24, 32, false",
            "48, 10, 16, false", // three blocks: the last zero point byte is half used
            "128, 7, 16, true",
    })
    void ortReadsTheWeightsAsJavaDequantizesThem(int k, int n, int block, boolean symmetric) throws Exception {
        SplittableRandom r = new SplittableRandom(k * 31L + n);
        float[] w = new float[k * n];
        for (int i = 0; i < w.length; i++) {
            w[i] = (float) (r.nextGaussian() * 0.2 + (i % 5 == 0 ? 0.1 : 0)); // blocks not centred on 0
        }
        int m = 3;
        float[] a = new float[m * k];
        for (int i = 0; i < a.length; i++) {
            a[i] = (float) (r.nextDouble() * 2 - 1);
        }
        Int4Weights q = Int4Weights.quantize(w, k, n, block, symmetric);
        assertThat(q.zeroPoints() == null).isEqualTo(symmetric);
        float[] deq = q.dequantize();
        for (int i = 0; i < k; i++) {
            for (int j = 0; j < n; j++) {
                // rounding is half a step; the symmetric side opposite the block's extreme clips at 7, a whole step
                float step = Math.abs(q.scales()[j * q.blocks() + i / block]);
                assertThat(Math.abs(deq[i * n + j] - w[i * n + j])).isLessThanOrEqualTo(step * (symmetric ? 1 : 0.5f)
                        + 1e-6f);
            }
        }
        float[] expected = matmul(a, deq, m, k, n);
        float[] ort = runMatMulNBits(a, m, q);
        double scale = 0;
        double maxDiff = 0;
        for (int i = 0; i < expected.length; i++) {
            scale = Math.max(scale, Math.abs(expected[i]));
            maxDiff = Math.max(maxDiff, Math.abs(expected[i] - ort[i]));
        }
        assertThat(maxDiff).as("ORT's MatMulNBits against Java's dequantize-then-matmul").isLessThan(1e-5 * scale + 1e-6);

        byte[] swapped = q.packed().clone();
        for (int i = 0; i < swapped.length; i++) {
            swapped[i] = (byte) (((swapped[i] & 0x0F) << 4) | ((swapped[i] >> 4) & 0x0F));
        }
        float[] misread = matmul(a, new Int4Weights(k, n, block, swapped, q.scales(), q.zeroPoints()).dequantize(), m, k, n);
        double missed = 0;
        for (int i = 0; i < misread.length; i++) {
            missed = Math.max(missed, Math.abs(misread[i] - ort[i]));
        }
        assertThat(missed).as("the other nibble order").isGreaterThan(100 * (1e-5 * scale + 1e-6));
    }

    private static float[] runMatMulNBits(float[] a, int m, Int4Weights q) throws Exception {
        GraphProto.Builder g = GraphProto.newBuilder().setName("int4")
                .addInput(floats("A", m, q.k())).addOutput(floats("Y", m, q.n()))
                .addNode(Int4Transform.node("proj", "A", "Y", q))
                .addAllInitializer(Int4Transform.initializers("proj", q));
        ModelProto model = ModelProto.newBuilder().setIrVersion(8).setGraph(g)
                .addOpsetImport(OperatorSetIdProto.newBuilder().setVersion(17))
                .addOpsetImport(OperatorSetIdProto.newBuilder().setDomain(Int4Transform.DOMAIN).setVersion(1)).build();
        try (OrtSession.SessionOptions o = new OrtSession.SessionOptions()) {
            o.setIntraOpNumThreads(1);
            try (OrtSession s = ENV.createSession(model.toByteArray(), o);
                 OnnxTensor in = OnnxTensor.createTensor(ENV, FloatBuffer.wrap(a), new long[]{m, q.k()});
                 OrtSession.Result out = s.run(Map.of("A", in))) {
                FloatBuffer y = ((OnnxTensor) out.get(0)).getFloatBuffer();
                float[] v = new float[y.remaining()];
                y.get(v);
                return v;
            }
        }
    }

    private static float[] matmul(float[] a, float[] w, int m, int k, int n) {
        float[] y = new float[m * n];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                double s = 0;
                for (int t = 0; t < k; t++) {
                    s += (double) a[i * k + t] * w[t * n + j];
                }
                y[i * n + j] = (float) s;
            }
        }
        return y;
    }

    private static ValueInfoProto floats(String name, long rows, long cols) {
        TensorShapeProto.Builder shape = TensorShapeProto.newBuilder()
                .addDim(TensorShapeProto.Dimension.newBuilder().setDimValue(rows))
                .addDim(TensorShapeProto.Dimension.newBuilder().setDimValue(cols));
        return ValueInfoProto.newBuilder().setName(name).setType(TypeProto.newBuilder().setTensorType(
                TypeProto.Tensor.newBuilder().setElemType(TensorProto.DataType.FLOAT.getNumber()).setShape(shape)))
                .build();
    }
}

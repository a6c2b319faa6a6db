package dev.inferbench.input;

import java.nio.file.Path;
import java.nio.file.Files;
import dev.inferbench.model.InputShapes;
import dev.inferbench.tensor.HostTensor;
import dev.inferbench.tensor.TensorSpec;
import dev.inferbench.tensor.TensorSpec.DType;
import org.junit.jupiter.api.Test;

import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SyntheticInputsTest {
    private static final TensorSpec IMAGE = new TensorSpec("input", DType.FLOAT32, new long[]{-1, 3, 4, 4});
    private static final TensorSpec TOKENS = new TensorSpec("ids", DType.INT64, new long[]{-1, -1});

    private static float[] floats(HostTensor t) {
        FloatBuffer b = ((FloatBuffer) t.data()).duplicate();
        float[] a = new float[b.remaining()];
        b.get(a);
        return a;
    }

    @Test
    void batchDimensionComesFromBatchSize() throws Exception {
        HostTensor t = SyntheticInputs.create("m", List.of(IMAGE), Map.of(), 5, 128, 1).get(0);
        assertThat(t.shape()).containsExactly(5, 3, 4, 4);
        assertThat(t.data().capacity()).isEqualTo(5 * 3 * 4 * 4);
        assertThat(t.data().isDirect()).isTrue();
        for (float v : floats(t)) {
            assertThat(v).isBetween(-1f, 1f);
        }
    }

    @Test
    void seededAndRepeatable() throws Exception {
        float[] a = floats(SyntheticInputs.create("m", List.of(IMAGE), Map.of(), 2, 128, 9).get(0));
        float[] b = floats(SyntheticInputs.create("m", List.of(IMAGE), Map.of(), 2, 128, 9).get(0));
        float[] c = floats(SyntheticInputs.create("m", List.of(IMAGE), Map.of(), 2, 128, 10).get(0));
        assertThat(a).containsExactly(b);
        assertThat(a).isNotEqualTo(c);
    }

    @Test
    void dynamicImageDimensionsNeedAConfiguredShape() {
        TensorSpec image = new TensorSpec("gpu_0/data_0", DType.FLOAT32, new long[]{-1, 3, -1, -1});
        assertThatThrownBy(() -> SyntheticInputs.create("detector", List.of(image), Map.of(), 1, 128, 1))
                .hasMessage("model 'detector' input 'gpu_0/data_0' dimension 2 of [-1, 3, -1, -1] is dynamic and not a"
                        + " sequence; expected its size: -p shape=gpu_0/data_0:3xNxN (batch left out)");
    }

    @Test
    void sequenceDimensionsComeFromSeqLenAndTokensFromTheVocabulary() throws Exception {
        TensorSpec mask = new TensorSpec("attention_mask", DType.INT64, new long[]{-1, -1});
        List<HostTensor> t = SyntheticInputs.create("bert", List.of(TOKENS, mask),
                new InputShapes("bert", Map.of(), 3, 40), 30522, 1);
        assertThat(t.get(0).shape()).containsExactly(3, 40);
        LongBuffer tokens = (LongBuffer) t.get(0).data();
        long max = 0;
        for (int i = 0; i < tokens.capacity(); i++) {
            assertThat(tokens.get(i)).isBetween(0L, 30521L);
            max = Math.max(max, tokens.get(i));
        }
        assertThat(max).isGreaterThan(SyntheticInputs.TOKEN_RANGE);
        LongBuffer ones = (LongBuffer) t.get(1).data();
        for (int i = 0; i < ones.capacity(); i++) {
            assertThat(ones.get(i)).isEqualTo(1L);
        }
        HostTensor configured = SyntheticInputs.create("bert", List.of(TOKENS), Map.of("ids", new long[]{16}), 2, 128, 1)
                .get(0);
        assertThat(configured.shape()).containsExactly(2, 16);
        LongBuffer ids = (LongBuffer) configured.data();
        for (int i = 0; i < ids.capacity(); i++) {
            assertThat(ids.get(i)).isBetween(0L, (long) SyntheticInputs.TOKEN_RANGE - 1);
        }
    }

    @Test
    void fixedBatchModelsRefuseOtherBatchSizes() {
        TensorSpec fixed = new TensorSpec("x", DType.FLOAT32, new long[]{1, 8});
        assertThatThrownBy(() -> SyntheticInputs.create("m", List.of(fixed), Map.of(), 4, 128, 1))
                .hasMessageContaining("fixed batch of 1").hasMessageContaining("batchSize 4");
    }

    @Test
    void batchesOver2GBAreRefusedNotOverflowed() {
        TensorSpec image = new TensorSpec("input", DType.FLOAT32, new long[]{-1, 3, 224, 224});
        assertThatThrownBy(() -> SyntheticInputs.create("resnet50", List.of(image), Map.of(), 4000, 128, 1))
                .hasMessageContaining("needs 2.4 GB").hasMessageContaining("smaller batchSize");
    }

    @Test
    void unsupportedTypesAreNamed() {
        TensorSpec str = new TensorSpec("text", DType.OTHER, new long[]{-1, 1});
        assertThatThrownBy(() -> SyntheticInputs.create("m", List.of(str), Map.of(), 1, 128, 1))
                .hasMessageContaining("input 'text'").hasMessageContaining("expected float32, float16, int64, int32, bool, uint8 or int8");
    }

    /**
     * A TorchScript file has no ONNX vocabulary to read: its inputs are made from the declared shapes alone (the
     * synthetic batch of a djl-pytorch cell and of verify on a .pt file), the same as without a file.
     */
    @Test
    void aTorchScriptFileIsNotReadAsOnnx(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path pt = Files.writeString(dir.resolve("their.pt"), "a TorchScript archive, not ONNX");
        TensorSpec x = new TensorSpec("x", DType.FLOAT32, new long[]{-1, 6});
        List<HostTensor> got = SyntheticInputs.forModel(new InputSpec("their", pt, Map.of(), 2, 128, 7), List.of(x));
        assertThat(got.get(0).shape()).containsExactly(2, 6);
        assertThat(floats(got.get(0))).containsExactly(floats(SyntheticInputs.create("their", List.of(x), Map.of(), 2,
                128, 7).get(0)));
    }
}

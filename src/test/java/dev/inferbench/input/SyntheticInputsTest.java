package dev.inferbench.input;

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
        HostTensor t = SyntheticInputs.create("m", List.of(IMAGE), Map.of(), 5, 1).get(0);
        assertThat(t.shape()).containsExactly(5, 3, 4, 4);
        assertThat(t.data().capacity()).isEqualTo(5 * 3 * 4 * 4);
        assertThat(t.data().isDirect()).isTrue();
        for (float v : floats(t)) {
            assertThat(v).isBetween(-1f, 1f);
        }
    }

    @Test
    void seededAndRepeatable() throws Exception {
        float[] a = floats(SyntheticInputs.create("m", List.of(IMAGE), Map.of(), 2, 9).get(0));
        float[] b = floats(SyntheticInputs.create("m", List.of(IMAGE), Map.of(), 2, 9).get(0));
        float[] c = floats(SyntheticInputs.create("m", List.of(IMAGE), Map.of(), 2, 10).get(0));
        assertThat(a).containsExactly(b);
        assertThat(a).isNotEqualTo(c);
    }

    @Test
    void dynamicDimensionsNeedAConfiguredShape() throws Exception {
        assertThatThrownBy(() -> SyntheticInputs.create("bert", List.of(TOKENS), Map.of(), 1, 1))
                .hasMessageContaining("input 'ids' has a dynamic dimension")
                .hasMessageContaining("model.bert.inputs=ids=");
        HostTensor t = SyntheticInputs.create("bert", List.of(TOKENS), Map.of("ids", new long[]{16}), 2, 1).get(0);
        assertThat(t.shape()).containsExactly(2, 16);
        LongBuffer ids = (LongBuffer) t.data();
        for (int i = 0; i < ids.capacity(); i++) {
            assertThat(ids.get(i)).isBetween(0L, (long) SyntheticInputs.TOKEN_RANGE - 1);
        }
    }

    @Test
    void fixedBatchModelsRefuseOtherBatchSizes() {
        TensorSpec fixed = new TensorSpec("x", DType.FLOAT32, new long[]{1, 8});
        assertThatThrownBy(() -> SyntheticInputs.create("m", List.of(fixed), Map.of(), 4, 1))
                .hasMessageContaining("fixed batch of 1").hasMessageContaining("batchSize 4");
    }

    @Test
    void batchesOver2GBAreRefusedNotOverflowed() {
        TensorSpec image = new TensorSpec("input", DType.FLOAT32, new long[]{-1, 3, 224, 224});
        assertThatThrownBy(() -> SyntheticInputs.create("resnet50", List.of(image), Map.of(), 4000, 1))
                .hasMessageContaining("needs 2.4 GB").hasMessageContaining("smaller batchSize");
    }

    @Test
    void unsupportedTypesAreNamed() {
        TensorSpec str = new TensorSpec("text", DType.OTHER, new long[]{-1, 1});
        assertThatThrownBy(() -> SyntheticInputs.create("m", List.of(str), Map.of(), 1, 1))
                .hasMessageContaining("input 'text'").hasMessageContaining("expected float32, int64 or int32");
    }
}

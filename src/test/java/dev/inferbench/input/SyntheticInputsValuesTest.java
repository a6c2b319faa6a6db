package dev.inferbench.input;

import dev.inferbench.BenchException;
import dev.inferbench.model.InputShapes;
import dev.inferbench.tensor.Half;
import dev.inferbench.tensor.HostTensor;
import dev.inferbench.tensor.TensorSpec;
import dev.inferbench.tensor.TensorSpec.DType;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What {@code -p values} puts in an input, by type, and what it refuses. */
class SyntheticInputsValuesTest {
    private static final InputValues.ArrayReader NO_FILES = (f, n) -> {
        throw new AssertionError("no file in this test");
    };

    private static HostTensor make(TensorSpec spec, String values, int batch, long seed) throws BenchException {
        return SyntheticInputs.create("m", List.of(spec), new InputShapes("m", Map.of(), batch, 4), 100, seed,
                InputValues.parse(values, NO_FILES)).get(0);
    }

    @Test
    void aConstantFillsEveryElementOfEachType() throws BenchException {
        TensorSpec sr = new TensorSpec("sr", DType.INT64, new long[0]);
        HostTensor t = make(sr, "sr:16000", 8, 1);
        assertThat(t.shape()).isEmpty();
        assertThat(((LongBuffer) t.data()).get(0)).isEqualTo(16000);
        HostTensor h = make(new TensorSpec("h", DType.FLOAT16, new long[]{-1, 3}), "h:0.5", 2, 1);
        ShortBuffer halves = (ShortBuffer) h.data();
        assertThat(halves.capacity()).isEqualTo(6);
        for (int i = 0; i < 6; i++) {
            assertThat(Half.toFloat(halves.get(i))).isEqualTo(0.5f);
        }
        HostTensor b = make(new TensorSpec("keep", DType.BOOL, new long[]{-1, 4}), "keep:0", 1, 1);
        assertThat(((ByteBuffer) b.data()).get(3)).isZero();
    }

    @Test
    void aRangeIsSeededAndIntegersIncludeBothEnds() throws BenchException {
        TensorSpec ids = new TensorSpec("ids", DType.INT64, new long[]{-1, -1});
        HostTensor a = make(ids, "ids:3..5", 64, 7);
        Set<Long> seen = new HashSet<>();
        LongBuffer l = (LongBuffer) a.data();
        for (int i = 0; i < l.capacity(); i++) {
            seen.add(l.get(i));
        }
        assertThat(seen).containsExactlyInAnyOrder(3L, 4L, 5L);
        assertThat(((LongBuffer) make(ids, "ids:3..5", 64, 7).data())).isEqualTo(l.duplicate().rewind());
        TensorSpec x = new TensorSpec("x", DType.FLOAT32, new long[]{-1, 16});
        FloatBuffer f = (FloatBuffer) make(x, "x:-0.25..0.25", 4, 7).data();
        for (int i = 0; i < f.capacity(); i++) {
            assertThat(f.get(i)).isBetween(-0.25f, 0.25f);
        }
        assertThat(f).isNotEqualTo(((FloatBuffer) make(x, "x:-0.25..0.25", 4, 8).data()));
    }

    @Test
    void oneSamplesArrayRepeatsOverTheBatch() throws BenchException {
        FloatBuffer sample = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder()).asFloatBuffer().put(0, 1.5f)
                .put(1, -2f);
        HostTensor given = new HostTensor("s", DType.FLOAT32, new long[]{2}, sample);
        InputValues values = InputValues.parse("s:s0.npy", (f, n) -> given);
        HostTensor t = SyntheticInputs.create("m", List.of(new TensorSpec("s", DType.FLOAT32, new long[]{-1, 2})),
                new InputShapes("m", Map.of(), 3, 4), 100, 1, values).get(0);
        FloatBuffer f = (FloatBuffer) t.data();
        assertThat(new float[]{f.get(0), f.get(1), f.get(4), f.get(5)}).containsExactly(1.5f, -2f, 1.5f, -2f);
        assertThatThrownBy(() -> SyntheticInputs.create("m", List.of(new TensorSpec("s", DType.FLOAT32,
                new long[]{-1, 3})), new InputShapes("m", Map.of(), 3, 4), 100, 1, values))
                .hasMessage("model 'm' input 's' (float32): s0.npy has the shape [2]; expected [3, 3] or one sample's"
                        + " [3]");
        assertThatThrownBy(() -> SyntheticInputs.create("m", List.of(new TensorSpec("s", DType.INT64,
                new long[]{-1, 2})), new InputShapes("m", Map.of(), 3, 4), 100, 1, values))
                .hasMessage("model 'm' input 's' (int64): s0.npy holds float32; expected an array of int64");
        assertThat(Path.of("s0.npy")).isEqualTo(((InputValues.Given) values.rule("s")).file());
    }

    @Test
    void aValueTheTypeCannotHoldIsRefused() {
        assertThatThrownBy(() -> make(new TensorSpec("m", DType.BOOL, new long[]{-1, 2}), "m:2", 1, 1))
                .hasMessage("model 'm' input 'm' (bool) cannot hold 2.0; expected 0 or 1");
        assertThatThrownBy(() -> make(new TensorSpec("ids", DType.INT32, new long[]{-1, 2}), "ids:0.5..9", 1, 1))
                .hasMessage("model 'm' input 'ids' (int32) takes whole numbers; got the range 0.5..9.0; expected e.g."
                        + " 0..100");
    }

    @Test
    void anInt8InputTakesSignedBytesAndRefusesWhatWouldWrap() throws BenchException {
        TensorSpec q = new TensorSpec("q", DType.INT8, new long[]{-1, 3});
        HostTensor t = make(q, "q:-5", 2, 1);
        ByteBuffer b = (ByteBuffer) t.data();
        for (int i = 0; i < 6; i++) {
            assertThat(b.get(i)).isEqualTo((byte) -5);
        }
        assertThatThrownBy(() -> make(q, "q:200", 1, 1)).hasMessage("model 'm' input 'q' (int8) holds -128 to 127;"
                + " got 200.0");
        assertThatThrownBy(() -> make(new TensorSpec("p", DType.UINT8, new long[]{-1, 3}), "p:0..300", 1, 1))
                .hasMessage("model 'm' input 'p' (uint8) holds 0 to 255; got 0.0..300.0");
        Set<Byte> seen = new HashSet<>();
        ByteBuffer synthetic = (ByteBuffer) make(q, "none", 64, 3).data();
        for (int i = 0; i < 192; i++) {
            seen.add(synthetic.get(i));
        }
        assertThat(seen).as("synthetic int8 values spread over the byte").anyMatch(v -> v < 0).anyMatch(v -> v > 0);
    }
}

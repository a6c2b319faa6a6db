package dev.inferbench.model;

import dev.inferbench.BenchException;
import dev.inferbench.tensor.TensorSpec;
import dev.inferbench.tensor.TensorSpec.DType;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class InputShapesTest {
    private static final TensorSpec IMAGE = new TensorSpec("x", DType.FLOAT32, new long[]{-1, 3, -1, -1},
            new String[]{"batch", "", "height", "width"});

    private static long[] resolve(Map<String, long[]> given, int batch, TensorSpec spec) throws BenchException {
        return new InputShapes("m", given, batch, 128).resolve(spec);
    }

    @Test
    void symbolicDimensionsAreSetByName() throws BenchException {
        assertThat(resolve(Map.of("height", new long[]{640}, "width", new long[]{480}), 2, IMAGE))
                .containsExactly(2, 3, 640, 480);
    }

    @Test
    void anInputsShapeLeavesTheBatchOutAndWinsOverNames() throws BenchException {
        assertThat(resolve(Map.of("x", new long[]{3, 64, 32}, "height", new long[]{640}), 4, IMAGE))
                .containsExactly(4, 3, 64, 32);
    }

    @Test
    void aShapeThatIncludesTheBatchIsRefusedWithTheShapeToGive() {
        assertThatThrownBy(() -> resolve(Map.of("x", new long[]{1, 3, 640, 640}), 1, IMAGE))
                .hasMessage("model 'm' input 'x' of [-1, 3, -1, -1] got the shape 1x3x640x640; expected 3 dimensions,"
                        + " batch left out (batchSize sets it), e.g. -p shape=x:3xNxN");
    }

    @Test
    void aFixedDimensionCannotBeChanged() {
        assertThatThrownBy(() -> resolve(Map.of("x", new long[]{4, 64, 64}), 1, IMAGE))
                .hasMessage("model 'm' input 'x' dimension 1 is 3 in the file; got 4 in 4x64x64; expected e.g."
                        + " -p shape=x:3xNxN");
    }

    @Test
    void aMissingDimensionNamesTheFlagAndTheDimension() {
        assertThatThrownBy(() -> resolve(Map.of("height", new long[]{640}), 1, IMAGE))
                .hasMessage("model 'm' input 'x' dimension 3 ('width') of [-1, 3, -1, -1] is dynamic and not a"
                        + " sequence; expected its size: -p shape=x:3xNxN (batch left out) or -p shape=width:N");
    }

    @Test
    void aScalarIsOneValueWithNoBatch() throws BenchException {
        TensorSpec sr = new TensorSpec("sr", DType.INT64, new long[0]);
        assertThat(resolve(Map.of(), 8, sr)).isEmpty();
        assertThatThrownBy(() -> resolve(Map.of("sr", new long[]{1}), 8, sr))
                .hasMessageContaining("input 'sr' is a scalar; got the shape 1 for it; expected no shape");
    }

    @Test
    void aNamedSequenceDimensionTakesItsNameOverSeqLen() {
        TensorSpec ids = new TensorSpec("input_ids", DType.INT64, new long[]{-1, -1}, new String[]{"batch", "seq"});
        InputShapes named = new InputShapes("m", Map.of("seq", new long[]{16}), 1, 128);
        assertThat(named.usesSeqLen(ids)).isFalse();
        assertThat(new InputShapes("m", Map.of(), 1, 128).usesSeqLen(ids)).isTrue();
        assertThat(catching(() -> named.resolve(ids))).containsExactly(1, 16);
    }

    private interface Resolve {
        long[] get() throws BenchException;
    }

    private static long[] catching(Resolve r) {
        try {
            return r.get();
        } catch (BenchException e) {
            throw new AssertionError(e);
        }
    }
}

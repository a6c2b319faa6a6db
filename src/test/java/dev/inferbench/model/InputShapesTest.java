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

    @Test
    void aDimensionNamedLikeABatchTakesTheBatchWhereverItIs() throws BenchException {
        TensorSpec h = new TensorSpec("h", DType.FLOAT32, new long[]{2, -1, 64}, new String[]{"", "batch", ""});
        assertThat(resolve(Map.of(), 8, h)).containsExactly(2, 8, 64);
        assertThat(InputShapes.batchAxis(h)).isEqualTo(1);
        TensorSpec timeMajor = new TensorSpec("x", DType.FLOAT32, new long[]{-1, -1, 16},
                new String[]{"time", "batch_size", ""});
        assertThat(resolve(Map.of("x", new long[]{5, 16}), 3, timeMajor)).containsExactly(5, 3, 16);
        assertThat(InputShapes.batchAxis(IMAGE)).isZero();
    }

    @Test
    void aStateBesideADynamicBatchHasItsBatchInItsOneOpenDimension() {
        TensorSpec audio = new TensorSpec("input", DType.FLOAT32, new long[]{-1, -1});
        TensorSpec state = new TensorSpec("state", DType.FLOAT32, new long[]{2, -1, 128});
        TensorSpec sr = new TensorSpec("sr", DType.INT64, new long[0]);
        assertThat(InputShapes.batchAxes(java.util.List.of(audio, state, sr)))
                .containsEntry("input", 0).containsEntry("state", 1);
        assertThat(catching(() -> new InputShapes("m", Map.of(), 3, 512).resolve(state, java.util.List.of(audio, state))))
                .containsExactly(2, 3, 128);
        // alone, or beside inputs of a fixed batch, a fixed first dimension is the batch: [1, ?] is one sequence
        TensorSpec ids = new TensorSpec("ids", DType.INT64, new long[]{1, -1});
        assertThat(InputShapes.batchAxes(java.util.List.of(ids))).containsEntry("ids", 0);
        assertThat(InputShapes.batchAxes(java.util.List.of(state))).containsEntry("state", 0);
    }

    @Test
    void anInputWhoseFirstDimensionIsFixedTakesItsWholeShape() throws BenchException {
        TensorSpec state = new TensorSpec("state", DType.FLOAT32, new long[]{2, -1, 128});
        assertThat(resolve(Map.of("state", new long[]{2, 1, 128}), 1, state)).containsExactly(2, 1, 128);
        assertThatThrownBy(() -> resolve(Map.of(), 1, state)).hasMessage("model 'm' input 'state' of [2, -1, 128]"
                + " has a fixed batch of 2, so batchSize 1 cannot run; expected batchSize=2, or its whole shape where 2"
                + " is no batch: -p shape=state:2xNx128");
        assertThatThrownBy(() -> resolve(Map.of("state", new long[]{3, 1, 128}), 1, state)).hasMessage("model 'm'"
                + " input 'state' dimension 0 is 2 in the file; got 3 in 3x1x128; expected e.g. -p shape=state:2xNx128"
                + " (its whole shape) or -p shape=state:Nx128 (batch left out)");
        TensorSpec fixed = new TensorSpec("x", DType.FLOAT32, new long[]{1, 16, 96});
        assertThatThrownBy(() -> resolve(Map.of(), 4, fixed)).hasMessage("model 'm' input 'x' of [1, 16, 96] has a"
                + " fixed batch of 1, so batchSize 4 cannot run; expected batchSize=1");
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

package dev.inferbench.bench;

import dev.inferbench.engine.ModelSignature;
import dev.inferbench.tensor.TensorSpec;
import dev.inferbench.tensor.TensorSpec.DType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Which output's first dimension the trial's sanity check holds to the batch. */
class OutputCheckTest {
    private static TensorSpec spec(String name, long[] shape, String... dims) {
        return new TensorSpec(name, DType.FLOAT32, shape, dims);
    }

    @Test
    void aTimeMajorOutputIsNotHeldToTheBatchButANamedOrUnnamedBatchIs() {
        TensorSpec audio = spec("input", new long[]{-1, -1}, "batch_size", "samples");
        TensorSpec mel = spec("output", new long[]{-1, 1, -1, 32}, "time", "", "frames", "");
        assertThat(OutputCheck.batchedFirst(new ModelSignature(List.of(audio), List.of(mel)))).isFalse();
        TensorSpec scores = spec("scores", new long[]{-1, 2}, "batch_size", "");
        assertThat(OutputCheck.batchedFirst(new ModelSignature(List.of(audio), List.of(scores)))).isTrue();
        TensorSpec unnamed = spec("y", new long[]{-1, 1}, "", "");
        assertThat(OutputCheck.batchedFirst(new ModelSignature(List.of(audio), List.of(unnamed)))).isTrue();
        // a state's batch is its second dimension: its name still names the batch
        TensorSpec h = spec("h", new long[]{2, -1, 64}, "", "batch", "");
        TensorSpec out = spec("output", new long[]{-1, 1}, "batch", "");
        assertThat(OutputCheck.batchedFirst(new ModelSignature(List.of(h), List.of(out)))).isTrue();
    }
}

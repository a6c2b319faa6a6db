package dev.inferbench.verify;

import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ToleranceTest {

    /** BERT-like hidden states: values up to 3.5, one near zero off by float rounding (2e-6), one off for real. */
    @Test
    void acrossEnginesAtolFollowsTheOutputsScale() {
        float[] expected = {3.5f, -2.0f, 3.0e-4f, 0.5f};
        float[] rounding = {3.5f, -2.0f, 3.02e-4f, 0.5f};
        float[] wrong = {3.5f, -2.0f, 3.0e-4f + 1e-3f, 0.5f};
        Tolerance t = Tolerance.ONNX_BACKEND;
        assertThat(t.mismatch(expected, rounding, "o")).startsWith("o: 1 of 4 values off");
        assertThat(t.acrossEngines(expected).mismatch(expected, rounding, "o")).isNull();
        assertThat(t.acrossEngines(expected).atol()).isEqualTo(3.5e-5, Offset.offset(1e-9));
        assertThat(t.acrossEngines(expected).mismatch(expected, wrong, "o")).startsWith("o: 1 of 4 values off");
        // small outputs (softmax) keep the ONNX backend tests' atol
        assertThat(t.acrossEngines(new float[]{0.001f, 0.002f}).atol()).isEqualTo(1e-7);
    }
}

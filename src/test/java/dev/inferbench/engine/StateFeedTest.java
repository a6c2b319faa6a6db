package dev.inferbench.engine;

import dev.inferbench.BenchException;
import dev.inferbench.input.InputValues;
import dev.inferbench.input.SyntheticInputs;
import dev.inferbench.model.DynamicModels;
import dev.inferbench.model.InputShapes;
import dev.inferbench.tensor.HostTensor;
import dev.inferbench.tensor.TensorSpec;
import dev.inferbench.tensor.TensorSpec.DType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.FloatBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code -p state}: outputs fed back as inputs between the calls of one prepared input, on ONNX Runtime. */
class StateFeedTest {
    @TempDir
    Path dir;

    private static List<HostTensor> inputs(InferenceEngine engine, Map<String, long[]> shapes, String values)
            throws BenchException {
        return SyntheticInputs.create("m", engine.signature().inputs(), new InputShapes("m", shapes, 1, 128),
                SyntheticInputs.TOKEN_RANGE, 7, InputValues.parse(values, (f, n) -> null));
    }

    /** hn after each of {@code calls} calls, element 0 (every element is alike: h is a constant). */
    private static float[] hnOverCalls(InferenceEngine engine, PreparedInput in, int calls) throws BenchException {
        float[] seen = new float[calls];
        for (int k = 0; k < calls; k++) {
            try (Outputs out = engine.run(in)) {
                seen[k] = out.floats(1)[0];
            }
        }
        return seen;
    }

    @Test
    void eachCallContinuesFromTheStateTheLastOneLeftPastThePinnedOutputs() throws Exception {
        Path model = DynamicModels.recurrent(dir.resolve("rnn.onnx"), true);
        try (InferenceEngine engine = EngineKind.ORT.open(model, Device.CPU, 1)) {
            List<HostTensor> batch = inputs(engine, Map.of(), "h:0");
            // outputs are pinned from the third call on: the feed must read ORT's pinned buffers as well as its results
            try (PreparedInput fed = engine.prepare(batch, StateFeed.parse("hn:h"))) {
                assertThat(hnOverCalls(engine, fed, 6)).containsExactly(1, 2, 3, 4, 5, 6);
            }
            try (PreparedInput plain = engine.prepare(batch, StateFeed.OFF)) {
                assertThat(hnOverCalls(engine, plain, 4)).containsExactly(1, 1, 1, 1);
            }
            assertThat(((FloatBuffer) batch.get(1).data()).get(0)).as("the caller's host tensor is not written")
                    .isEqualTo(0f);
        }
    }

    @Test
    void aStateWhoseBatchIsUnnamedTakesItBesideADynamicBatchOrItsWholeShape() throws Exception {
        Path model = DynamicModels.recurrent(dir.resolve("v5.onnx"), false);
        try (InferenceEngine engine = EngineKind.ORT.open(model, Device.CPU, 1)) {
            // x [batch, 4] takes any batch, so h [2, ?, 3] has its batch in its one open dimension
            List<HostTensor> batch = SyntheticInputs.create("m", engine.signature().inputs(),
                    new InputShapes("m", Map.of(), 5, 128), SyntheticInputs.TOKEN_RANGE, 7, InputValues.DEFAULT);
            assertThat(batch.get(1).shape()).containsExactly(2, 5, 3);
            List<HostTensor> given = inputs(engine, Map.of("h", new long[]{2, 1, 3}), "h:0.5");
            assertThat(given.get(1).shape()).containsExactly(2, 1, 3);
            try (PreparedInput fed = engine.prepare(given, StateFeed.parse("hn:h"))) {
                assertThat(hnOverCalls(engine, fed, 3)).containsExactly(1.5f, 2.5f, 3.5f);
            }
        }
    }

    @Test
    void anOutputOfAnotherSizeIsRefusedOnTheFirstCall() throws Exception {
        Path model = DynamicModels.recurrent(dir.resolve("rnn.onnx"), true);
        try (InferenceEngine engine = EngineKind.ORT.open(model, Device.CPU, 1)) {
            // y [1, 4] into x [1, 4] fits; y into h [2, 1, 3] does not, and x keeps its type
            try (PreparedInput in = engine.prepare(inputs(engine, Map.of(), "h:0"), StateFeed.parse("y:h"))) {
                assertThatThrownBy(() -> engine.run(in)).isInstanceOf(BenchException.class)
                        .hasMessage("state: output 'y' [1, 4] does not fit input 'h' [2, 1, 3]; expected an output of"
                                + " the input's shape (-p shape=h:...)");
            }
        }
    }

    @Test
    void namesAndTypesAreCheckedAgainstTheSignature() throws Exception {
        List<TensorSpec> in = List.of(new TensorSpec("state", DType.FLOAT32, new long[]{2, -1, 128}),
                new TensorSpec("sr", DType.INT64, new long[0]));
        List<TensorSpec> out = List.of(new TensorSpec("output", DType.FLOAT32, new long[]{-1, 1}),
                new TensorSpec("stateN", DType.FLOAT32, new long[]{-1, -1, -1}));
        StateFeed.parse("stateN:state").check("vad", in, out);
        assertThatThrownBy(() -> StateFeed.parse("staten:state").check("vad", in, out)).hasMessage("state names"
                + " output 'staten', which model 'vad' does not have; expected one of [output, stateN] before the ':'");
        assertThatThrownBy(() -> StateFeed.parse("stateN:h").check("vad", in, out)).hasMessage("state names input"
                + " 'h', which model 'vad' does not have; expected one of [state, sr] after the ':'");
        assertThatThrownBy(() -> StateFeed.parse("stateN:sr").check("vad", in, out)).hasMessage("state feeds output"
                + " 'stateN' (float32) of model 'vad' into input 'sr' (int64); expected an output of the input's type");
    }

    @Test
    void theValueReadsAsPairsOrIsRefusedInOneLine() throws Exception {
        assertThat(StateFeed.parse("none").isEmpty()).isTrue();
        assertThat(StateFeed.parse(null)).isEqualTo(StateFeed.OFF);
        assertThat(StateFeed.parse("hn:h; cn:c").links()).containsExactly(new StateFeed.Link("hn", "h"),
                new StateFeed.Link("cn", "c"));
        assertThat(StateFeed.parse("onnx::Add_3:onnx::Flatten_0").links())
                .containsExactly(new StateFeed.Link("onnx::Add_3", "onnx::Flatten_0"));
        for (String bad : List.of("stateN", "stateN:", ":state", "hn:h;cn:h")) {
            assertThatThrownBy(() -> StateFeed.parse(bad)).as(bad).isInstanceOf(BenchException.class)
                    .hasMessageStartingWith("state '" + bad + "'").hasMessageNotContaining("\n");
        }
    }
}

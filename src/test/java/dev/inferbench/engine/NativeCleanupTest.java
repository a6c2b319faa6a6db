package dev.inferbench.engine;

import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import dev.inferbench.BenchException;
import dev.inferbench.input.SyntheticInputs;
import dev.inferbench.model.OnnxExporter;
import dev.inferbench.model.Zoo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.FloatBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every native object ONNX Runtime's paths make is closed on the paths that fail, and what fails leaves the engine or
 * the decode state usable: a failure is injected where a machine short of memory would fail (pinning an input's
 * outputs, growing the KV cache) or a request is too large for one direct buffer.
 */
class NativeCleanupTest {
    @TempDir
    Path dir;

    @Test
    void aFailedPinningClosesTheSecondRunsOutputs() throws Exception {
        Path model = dir.resolve("mlp-tiny.onnx");
        try (OutputStream out = Files.newOutputStream(model)) {
            new OnnxExporter(5).write(Zoo.MLP_TINY.architecture().build(), out);
        }
        try (OrtEngine engine = OrtEngine.open(model, Device.CPU, EngineSettings.threads(1), null);
             PreparedInput in = engine.prepare(SyntheticInputs.create("m", engine.signature().inputs(), Map.of(), 2,
                     128, 1))) {
            float[] first;
            try (Outputs out = engine.run(in)) {
                first = out.floats(0);
            }
            List<OnnxTensor> seen = new ArrayList<>();
            engine.pinWith((env, second) -> {
                seen.add((OnnxTensor) second.get(0));
                throw new OutOfMemoryError("Cannot reserve 80 bytes of direct buffer memory");
            });
            assertThatThrownBy(() -> engine.run(in)).isInstanceOf(OutOfMemoryError.class);
            assertThat(seen).hasSize(1);
            assertThat(seen.get(0).isClosed()).as("the second run's output").isTrue();
            try (Outputs out = engine.run(in)) {
                assertThat(out.floats(0)).as("the input still runs, unpinned").containsExactly(first);
            }
        }
    }

    @Test
    void logitsPastOneDirectBufferFailTheStepWithItsOneLineAndTheStateStillDecodes() throws Exception {
        try (Decoder decoder = EngineKind.ORT.openDecoder(OrtDecoderTest.writeTiny(dir), Device.CPU,
                EngineSettings.threads(1));
             DecodeState state = decoder.begin(1)) {
            long[] prompt = OrtDecoderTest.prompts(1, 5, decoder.layout().vocab(), 3)[0];
            long[] before = new long[1];
            state.step(prompt, 5, before);
            state.reset();
            int tokens = 1 << 20; // x 512 logits x 4 bytes: 2 GiB, one byte past what one direct buffer holds
            assertThatThrownBy(() -> state.step(new long[tokens], tokens, new long[1]))
                    .isInstanceOf(BenchException.class)
                    .hasMessage("the logits of a step of 1048576 tokens at batch 1 take 2147483648 bytes, more than"
                            + " the 2 GiB one direct buffer holds; expected a shorter prompt or a smaller batch");
            assertThat(state.cached()).isZero();
            long[] after = new long[1];
            state.step(prompt, 5, after);
            assertThat(after).containsExactly(before);
        }
    }

    /**
     * Growing the cache makes two tensors (each layer's past, moved to a larger buffer) and then the step's two
     * presents: whichever of the four fails, the pasts are open with their tokens, nothing else made stays open, and
     * the same step then succeeds.
     */
    @Test
    void aFailureAnywhereInAGrowingStepLeavesThePastsAsTheyWere() throws Exception {
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        for (int failing = 1; failing <= 4; failing++) {
            FailingWrap wrap = new FailingWrap();
            PinnedKvCache cache = new PinnedKvCache(wrap, 2, 1, 1, 2, OnnxJavaType.FLOAT);
            try {
                OnnxTensor[] presents = cache.next(env, 0, 3);
                for (int i = 0; i < 2; i++) {
                    FloatBuffer values = ((ByteBuffer) presents[i].getBufferRef().orElseThrow()).asFloatBuffer();
                    while (values.hasRemaining()) {
                        values.put(i + 1);
                    }
                }
                cache.advance();
                wrap.failAt = wrap.made.size() + failing;
                assertThatThrownBy(() -> cache.next(env, 3, 5)).as("tensor %d of the step failing", failing)
                        .hasMessage("no memory left for tensor " + wrap.failAt);
                for (int i = 0; i < 2; i++) {
                    OnnxTensor past = cache.past(i);
                    assertThat(past.isClosed()).as("past %d, tensor %d failing", i, failing).isFalse();
                    assertThat(past.getInfo().getShape()).containsExactly(1, 1, 3, 2);
                    assertThat(OrtOutputs.floatsOf(past)).hasSize(6).containsOnly(i + 1f);
                }
                List<OnnxTensor> pasts = List.of(cache.past(0), cache.past(1));
                assertThat(wrap.made).as("tensor %d failing", failing)
                        .allMatch(t -> t.isClosed() || pasts.contains(t));
                wrap.failAt = 0;
                assertThat(cache.next(env, 3, 5)).allSatisfy(t ->
                        assertThat(t.getInfo().getShape()).containsExactly(1, 1, 8, 2));
                cache.advance();
            } finally {
                cache.reset();
            }
            assertThat(wrap.made).allMatch(OnnxTensor::isClosed);
        }
    }

    /** ORT's own wrapping, but for the {@code failAt}-th tensor (from 1; 0: none), which fails as ORT would. */
    private static final class FailingWrap implements PinnedKvCache.Wrap {
        final List<OnnxTensor> made = new ArrayList<>();
        int failAt;

        @Override
        public OnnxTensor tensor(OrtEnvironment env, ByteBuffer data, long[] shape, OnnxJavaType type)
                throws OrtException {
            if (made.size() + 1 == failAt) {
                throw new OrtException("no memory left for tensor " + failAt);
            }
            OnnxTensor t = OnnxTensor.createTensor(env, data, shape, type);
            made.add(t);
            return t;
        }
    }
}

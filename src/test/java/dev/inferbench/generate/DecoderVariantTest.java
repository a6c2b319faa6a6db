package dev.inferbench.generate;

import dev.inferbench.engine.DecodeState;
import dev.inferbench.engine.Decoder;
import dev.inferbench.engine.DecoderLayout;
import dev.inferbench.engine.Device;
import dev.inferbench.engine.EngineKind;
import dev.inferbench.engine.EngineSettings;
import dev.inferbench.model.Zoo;
import dev.inferbench.model.ZooGenerator;
import dev.inferbench.tensor.TensorSpec.DType;
import dev.inferbench.variant.Precision;
import dev.inferbench.variant.Variants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import ai.onnx.proto.OnnxMl.ModelProto;
import ai.onnx.proto.OnnxMl.NodeProto;

import java.io.OutputStream;
import java.nio.file.Files;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The zoo decoder's float16 variant (float16 caches and logits) and its int4 weight-only variant (MatMulNBits), each run
 * by path, and their fidelity to fp32.
 */
class DecoderVariantTest {
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    @TempDir
    Path dir;

    private Path tiny() throws Exception {
        Path file = dir.resolve("llama-tiny.onnx");
        new ZooGenerator(7, QUIET).generate(Zoo.LLAMA_TINY.architecture(), file);
        return file;
    }

    @Test
    void theFp16VariantHasHalfCachesAndLogitsAndFollowsFp32() throws Exception {
        Path source = tiny();
        Path fp16 = Variants.ensure("llama-tiny", source, Precision.FP16, Map.of(), 1, QUIET);
        DecoderLayout half = DecoderLayout.of(fp16);
        DecoderLayout full = DecoderLayout.of(source);
        assertThat(half.cacheType()).isEqualTo(DType.FLOAT16);
        assertThat(half.logitsType()).isEqualTo(DType.FLOAT16);
        assertThat(half.cacheBytesPerToken() * 2).isEqualTo(full.cacheBytesPerToken());
        GenerationSpec spec = new GenerationSpec(24, 32);
        long[] prompt = spec.prompt(1, full.vocab(), 11);
        try (Decoder reference = EngineKind.ORT.openDecoder(source, Device.CPU, EngineSettings.threads(1));
             Decoder variant = EngineKind.ORT.openDecoder(fp16, Device.CPU, EngineSettings.threads(1))) {
            DecoderFidelity f = DecoderFidelity.measure(reference, variant, prompt, spec.outputLen());
            DecoderFidelity self = DecoderFidelity.measure(reference, reference, prompt, spec.outputLen());
            System.out.printf("llama-tiny fp16 against fp32: %.1f %% of %d greedy tokens agree, max |delta logit| at"
                    + " the prefill %.3g%n", f.agreement(), f.tokens(), f.maxAbsLogit());
            assertThat(self.agreement()).isEqualTo(100);
            assertThat(self.maxAbsLogit()).isZero();
            // float16 rounds: the logits differ, but by float16's error on logits under one unit, not by a broken graph
            assertThat(f.maxAbsLogit()).isGreaterThan(0).isLessThan(0.01);
            assertThat(f.agreement()).isGreaterThanOrEqualTo(90);
            // with the cache, the float16 decoder gives the tokens it gives recomputing the whole sequence
            try (DecodeState state = variant.begin(1)) {
                Generation cached = new Generation(state, 1, prompt, spec);
                cached.request();
                assertThat(cached.output()).isEqualTo(recomputed(variant, prompt, spec.outputLen()));
            }
        }
    }

    @Test
    void theInt4VariantQuantizesEveryProjectionAndFollowsFp32() throws Exception {
        Path source = tiny();
        Path int4 = Variants.ensure("llama-tiny", source, Precision.INT4, Map.of(), 1, QUIET);
        ModelProto model = ModelProto.parseFrom(Files.readAllBytes(int4));
        Map<String, Long> ops = model.getGraph().getNodeList().stream()
                .collect(Collectors.groupingBy(NodeProto::getOpType, Collectors.counting()));
        // per layer q, k, v, o, gate, up, down, and the tied head: every MatMul over a weight; the attention's two
        // MatMuls per layer (scores and context) read activations and stay
        assertThat(ops.get("MatMulNBits")).isEqualTo(2 * 7 + 1);
        assertThat(ops.get("MatMul")).isEqualTo(2 * 2);
        long transposes = ModelProto.parseFrom(Files.readAllBytes(source)).getGraph().getNodeList().stream()
                .filter(n -> n.getOpType().equals("Transpose")).count();
        assertThat(ops.get("Transpose")).isEqualTo(transposes - 1); // the tied head's, of the embedding table
        assertThat(model.getGraph().getInitializerList()).noneMatch(t -> t.getName().endsWith("proj.weight"));
        assertThat(Files.size(int4)).isLessThan(Files.size(source) / 2);
        DecoderLayout layout = DecoderLayout.of(int4);
        assertThat(layout).isEqualTo(DecoderLayout.of(source)); // weight-only: float32 caches and logits, same sizes
        GenerationSpec spec = new GenerationSpec(24, 32);
        long[] prompt = spec.prompt(1, layout.vocab(), 11);
        Path simulated = dir.resolve("llama-tiny.int4-simulated.onnx");
        Files.write(simulated, Variants.int4Simulated(ModelProto.parseFrom(Files.readAllBytes(source))).toByteArray());
        try (Decoder reference = EngineKind.ORT.openDecoder(source, Device.CPU, EngineSettings.threads(1));
             Decoder dequantized = EngineKind.ORT.openDecoder(simulated, Device.CPU, EngineSettings.threads(1));
             Decoder variant = EngineKind.ORT.openDecoder(int4, Device.CPU, EngineSettings.threads(1))) {
            // MatMulNBits computes what plain MatMuls over the dequantized weights compute: the packing is read right
            DecoderFidelity exact = DecoderFidelity.measure(dequantized, variant, prompt, spec.outputLen());
            assertThat(exact.agreement()).isEqualTo(100);
            assertThat(exact.maxAbsLogit()).isLessThan(1e-5);
            DecoderFidelity f = DecoderFidelity.measure(reference, variant, prompt, spec.outputLen());
            System.out.printf("llama-tiny int4 against fp32: %.1f %% of %d greedy tokens agree, max |delta logit| at"
                    + " the prefill %.3g%n", f.agreement(), f.tokens(), f.maxAbsLogit());
            // 4-bit weights move the seeded decoder's close-together logits (largest |logit| about 0.5) by about a
            // tenth, far more than float16 does, and flip the nearer ties; a weight read wrongly gives noise instead
            assertThat(f.maxAbsLogit()).isGreaterThan(0.01).isLessThan(0.3);
            assertThat(f.agreement()).isGreaterThanOrEqualTo(50);
            try (DecodeState state = variant.begin(1)) {
                Generation cached = new Generation(state, 1, prompt, spec);
                cached.request();
                assertThat(cached.output()).isEqualTo(recomputed(variant, prompt, spec.outputLen()));
            }
        }
    }

    @Test
    void aModelThatIsNoDecoderHasNoInt4Variant() throws Exception {
        Path mlp = dir.resolve("mlp-tiny.onnx");
        new ZooGenerator(7, QUIET).generate(Zoo.MLP_TINY.architecture(), mlp);
        assertThatThrownBy(() -> Variants.ensure("mlp-tiny", mlp, Precision.INT4, Map.of(), 1, QUIET))
                .hasMessage("model 'mlp-tiny' is no decoder (it takes no past_key_values), and int4 variants quantize"
                        + " a decoder's MatMul weights; expected precision fp32, fp16 or int8 for it");
    }

    @Test
    void aDecoderHasNoInt8Variant() throws Exception {
        Path source = tiny();
        assertThatThrownBy(() -> Variants.ensure("llama-tiny", source, Precision.INT8, Map.of(), 1, QUIET))
                .hasMessage("model 'llama-tiny' is a decoder (it takes past_key_values), and int8 variants are"
                        + " calibrated on single forward calls; expected precision fp32, fp16 or int4 for a decoder");
    }

    /** Greedy tokens without the cache: the whole sequence again at every token. */
    static long[] recomputed(Decoder decoder, long[] prompt, int tokens) throws Exception {
        long[] seq = java.util.Arrays.copyOf(prompt, prompt.length + tokens);
        long[] next = new long[1];
        try (DecodeState s = decoder.begin(1)) {
            for (int t = 0; t < tokens; t++) {
                s.reset();
                s.step(java.util.Arrays.copyOf(seq, prompt.length + t), prompt.length + t, next);
                seq[prompt.length + t] = next[0];
            }
        }
        return java.util.Arrays.copyOfRange(seq, prompt.length, seq.length);
    }
}

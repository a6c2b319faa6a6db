package dev.inferbench.engine;

import dev.inferbench.BenchException;
import dev.inferbench.tensor.TensorSpec;
import dev.inferbench.tensor.TensorSpec.DType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A decoder's signature is recognised as Optimum's layout, or refused in one line saying what was expected. */
class DecoderLayoutTest {
    private static TensorSpec t(String name, DType type, long... shape) {
        return new TensorSpec(name, type, shape);
    }

    /** An Optimum-style signature of {@code layers} layers, 3 KV heads of 64, vocabulary 1000. */
    private static ModelSignature optimum(int layers, boolean positions, String... extraInputs) {
        List<TensorSpec> in = new ArrayList<>(List.of(t("input_ids", DType.INT64, -1, -1),
                t("attention_mask", DType.INT64, -1, -1)));
        if (positions) {
            in.add(t("position_ids", DType.INT64, -1, -1));
        }
        List<TensorSpec> out = new ArrayList<>(List.of(t("logits", DType.FLOAT32, -1, -1, 1000)));
        for (int i = 0; i < layers; i++) {
            for (String kv : new String[]{"key", "value"}) {
                in.add(t("past_key_values." + i + "." + kv, DType.FLOAT32, -1, 3, -1, 64));
                out.add(t("present." + i + "." + kv, DType.FLOAT32, -1, 3, -1, 64));
            }
        }
        for (String extra : extraInputs) {
            in.add(t(extra, DType.BOOL, 1));
        }
        return new ModelSignature(in, out);
    }

    @Test
    void recognisesOptimumsLayoutWithAndWithoutPositionIds() throws BenchException {
        DecoderLayout l = DecoderLayout.of(optimum(4, true), Map.of(), "m.onnx");
        assertThat(l).isEqualTo(new DecoderLayout(4, 3, 64, 1000, true, OptionalInt.empty()));
        assertThat(l.cacheBytesPerToken()).isEqualTo(2L * 4 * 3 * 64 * 4);
        assertThat(DecoderLayout.of(optimum(2, false), Map.of("inferbench.decoder.context", "512"), "m.onnx"))
                .isEqualTo(new DecoderLayout(2, 3, 64, 1000, false, OptionalInt.of(512)));
    }

    @Test
    void refusesADecoderWithoutACache() {
        ModelSignature noCache = new ModelSignature(List.of(t("input_ids", DType.INT64, -1, -1),
                t("attention_mask", DType.INT64, -1, -1)), List.of(t("logits", DType.FLOAT32, -1, -1, 1000)));
        assertThatThrownBy(() -> DecoderLayout.of(noCache, Map.of(), "decoder_model.onnx"))
                .hasMessageStartingWith("decoder_model.onnx has no KV-cache inputs (past_key_values.N.key/value;")
                .hasMessageContaining("--task text-generation-with-past").hasMessageNotContaining("\n");
    }

    @Test
    void recognisesAMergedDecoderByItsBoolSwitch() throws BenchException {
        assertThat(DecoderLayout.of(optimum(2, true, "use_cache_branch"), Map.of(), "merged.onnx").merged()).isTrue();
        assertThat(DecoderLayout.of(optimum(2, true), Map.of(), "split.onnx").merged()).isFalse();
        ModelSignature m = optimum(2, true);
        List<TensorSpec> in = new ArrayList<>(m.inputs());
        in.add(t("use_cache_branch", DType.FLOAT32, 1));
        assertThatThrownBy(() -> DecoderLayout.of(new ModelSignature(in, m.outputs()), Map.of(), "odd.onnx"))
                .hasMessageStartingWith("odd.onnx input use_cache_branch:float32[1] is not a merged decoder's bool [1]"
                        + " switch; expected an Optimum text-generation-with-past decoder")
                .hasMessageNotContaining("\n");
    }

    @Test
    void recognisesFloat16CachesAndLogitsEachOfItsOwnType() throws BenchException {
        ModelSignature m = optimum(2, true);
        List<TensorSpec> in = new ArrayList<>();
        List<TensorSpec> out = new ArrayList<>();
        m.inputs().forEach(s -> in.add(s.type() == DType.FLOAT32 ? t(s.name(), DType.FLOAT16, s.shape()) : s));
        m.outputs().forEach(s -> out.add(s.name().startsWith("present") ? t(s.name(), DType.FLOAT16, s.shape()) : s));
        DecoderLayout l = DecoderLayout.of(new ModelSignature(in, out), Map.of(), "half.onnx");
        assertThat(l.cacheType()).isEqualTo(DType.FLOAT16);
        assertThat(l.logitsType()).isEqualTo(DType.FLOAT32);
        assertThat(l.cacheBytesPerToken()).isEqualTo(2L * 2 * 3 * 64 * 2);
        List<TensorSpec> mixed = new ArrayList<>(in);
        mixed.set(4, t("past_key_values.0.value", DType.FLOAT32, -1, 3, -1, 64));
        assertThatThrownBy(() -> DecoderLayout.of(new ModelSignature(mixed, out), Map.of(), "mixed.onnx"))
                .hasMessageContaining("input past_key_values.0.value:float32[-1, 3, -1, 64] is not a float32 or"
                        + " float16 cache [batch, kv_heads, past, head_dim] with fixed kv_heads and head_dim, of the"
                        + " type and sizes of past_key_values.0.key:float16[-1, 3, -1, 64]");
        List<TensorSpec> intLogits = new ArrayList<>(out);
        intLogits.set(0, t("logits", DType.INT32, -1, -1, 1000));
        assertThatThrownBy(() -> DecoderLayout.of(new ModelSignature(in, intLogits), Map.of(), "int.onnx"))
                .hasMessageContaining("is not float32 or float16 logits [batch, seq, vocab]");
    }

    @Test
    void refusesBfloat16CachesAndLogitsSayingWhy() {
        ModelSignature m = optimum(2, true);
        List<TensorSpec> in = new ArrayList<>();
        m.inputs().forEach(s -> in.add(s.type() == DType.FLOAT32 ? t(s.name(), DType.BFLOAT16, s.shape()) : s));
        assertThatThrownBy(() -> DecoderLayout.of(new ModelSignature(in, m.outputs()), Map.of(), "bf16.onnx"))
                .hasMessage("bf16.onnx has bfloat16 caches (past_key_values.0.key:bfloat16[-1, 3, -1, 64]): "
                        + DecoderLayout.NO_BFLOAT16 + "; expected float32 or float16 caches and logits (export with"
                        + " --dtype fp32 or fp16)");
        List<TensorSpec> out = new ArrayList<>(m.outputs());
        out.set(0, t("logits", DType.BFLOAT16, -1, -1, 1000));
        assertThatThrownBy(() -> DecoderLayout.of(new ModelSignature(m.inputs(), out), Map.of(), "bf16.onnx"))
                .hasMessageStartingWith("bf16.onnx has bfloat16 logits (logits:bfloat16[-1, -1, 1000]): ONNX Runtime's");
    }

    @Test
    void refusesUnknownNames() {
        assertThatThrownBy(() -> DecoderLayout.of(optimum(2, true, "token_type_ids"), Map.of(), "odd.onnx"))
                .hasMessageStartingWith("odd.onnx does not have the decoder layout: unknown names [token_type_ids];"
                        + " expected an Optimum text-generation-with-past decoder");
    }

    @Test
    void refusesAVocabularyMismatch() {
        assertThatThrownBy(() -> DecoderLayout.of(optimum(2, true), Map.of("inferbench.input.vocab", "49152"), "v.onnx"))
                .hasMessage("v.onnx has a vocabulary mismatch: its metadata says inferbench.input.vocab=49152 but its"
                        + " logits have 1000 entries; expected the two to agree (token ids would index past the"
                        + " embedding table)");
    }

    @Test
    void refusesAHalfCacheAndADynamicHeadCount() {
        ModelSignature half = optimum(2, true);
        List<TensorSpec> in = new ArrayList<>(half.inputs());
        in.removeIf(s -> s.name().equals("past_key_values.1.value"));
        assertThatThrownBy(() -> DecoderLayout.of(new ModelSignature(in, half.outputs()), Map.of(), "h.onnx"))
                .hasMessageContaining("has 3 past_key_values inputs but no past_key_values.1.value");
        List<TensorSpec> dynamic = new ArrayList<>(half.inputs());
        dynamic.set(3, t("past_key_values.0.key", DType.FLOAT32, -1, -1, -1, 64));
        assertThatThrownBy(() -> DecoderLayout.of(new ModelSignature(dynamic, half.outputs()), Map.of(), "d.onnx"))
                .hasMessageContaining("is not a float32 or float16 cache [batch, kv_heads, past, head_dim] with fixed"
                        + " kv_heads");
    }
}

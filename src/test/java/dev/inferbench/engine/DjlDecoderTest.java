package dev.inferbench.engine;

import dev.inferbench.generate.StaticBatcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.inferbench.variant.Precision;
import dev.inferbench.variant.Variants;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** djl-ort decodes the zoo decoder to ort's tokens, leaves no arrays behind; djl-pytorch refuses in one line. */
class DjlDecoderTest {
    @TempDir
    Path dir;

    @Test
    void djlOrtDecodesOrtsTokensAndLeavesNoArraysBehind() throws Exception {
        Path file = OrtDecoderTest.writeTiny(dir);
        long[][] prompts = OrtDecoderTest.prompts(3, 7, 512, 5);
        long[][] djl;
        try (Decoder decoder = EngineKind.DJL_ORT.openDecoder(file, Device.CPU, EngineSettings.threads(1))) {
            djl = OrtDecoderTest.greedy(decoder, prompts, 10, true);
            assertThat(OrtDecoderTest.greedy(decoder, prompts, 10, false)).isDeepEqualTo(djl);
            DjlEngine engine = ((DjlDecoder) decoder).engine();
            int before = engine.managedArrays();
            OrtDecoderTest.greedy(decoder, prompts, 10, true);
            assertThat(engine.managedArrays()).isEqualTo(before);
            // left padding (static batching under load): a padded batch gives each request its tokens alone
            try (StaticBatcher batcher = new StaticBatcher(decoder, 2)) {
                batcher.check(512, 3, 3, 7, 5);
            }
        }
        // DJL's engine made ONNX Runtime's environment first, so plain ORT can open now in this JVM
        try (Decoder decoder = EngineKind.ORT.openDecoder(file, Device.CPU, EngineSettings.threads(1))) {
            assertThat(OrtDecoderTest.greedy(decoder, prompts, 10, true)).isDeepEqualTo(djl);
        }
    }

    @Test
    void djlOrtDecodesAFloat16AndAMergedDecoderToOrtsTokens() throws Exception {
        Path file = OrtDecoderTest.writeTiny(dir);
        Path half = Variants.ensure("llama-tiny", file, Precision.FP16, Map.of(), 1,
                new PrintStream(OutputStream.nullOutputStream()));
        Path merged = MergedDecoderTest.writeMerged(dir);
        long[][] prompts = OrtDecoderTest.prompts(2, 7, 512, 5);
        Map<Path, long[][]> djl = new LinkedHashMap<>();
        for (Path p : List.of(half, merged)) {
            try (Decoder decoder = EngineKind.DJL_ORT.openDecoder(p, Device.CPU, EngineSettings.threads(1))) {
                djl.put(p, OrtDecoderTest.greedy(decoder, prompts, 10, true));
                assertThat(OrtDecoderTest.greedy(decoder, prompts, 10, false)).isDeepEqualTo(djl.get(p));
            }
        }
        for (Path p : List.of(half, merged)) {
            try (Decoder decoder = EngineKind.ORT.openDecoder(p, Device.CPU, EngineSettings.threads(1))) {
                assertThat(OrtDecoderTest.greedy(decoder, prompts, 10, true)).isDeepEqualTo(djl.get(p));
            }
        }
    }

    @Test
    void djlPyTorchRefusesDecodersInOneLine() {
        assertThatThrownBy(() -> EngineKind.DJL_PYTORCH.openDecoder(dir.resolve("any.onnx"), Device.CPU,
                EngineSettings.DEFAULTS))
                .hasMessageStartingWith("engine 'djl-pytorch' cannot run decoders")
                .hasMessageContaining("expected -p engine=ort or djl-ort")
                .hasMessageNotContaining("\n");
    }
}

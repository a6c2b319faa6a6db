package dev.inferbench.generate;

import dev.inferbench.BenchException;
import dev.inferbench.engine.DecoderLayout;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GenerationSpecTest {
    /** Lengths without a prompt file never read the model's folder. */
    private static final java.nio.file.Path NO_FILE = java.nio.file.Path.of("no-folder", "model.onnx");

    private static final DecoderLayout TINY = new DecoderLayout(2, 2, 16, 512, true, OptionalInt.of(256));

    @Test
    void readsTheLengthsWithTheirDefaults() throws BenchException {
        assertThat(GenerationSpec.of(Map.of("promptLen", "512", "outputLen", "64")))
                .isEqualTo(new GenerationSpec(512, 64));
        assertThat(GenerationSpec.of(Map.of())).isEqualTo(new GenerationSpec(128, 64));
    }

    @Test
    void refusesNoOutputTokensAndAnEmptyPrompt() {
        assertThatThrownBy(() -> GenerationSpec.of(Map.of("outputLen", "0")))
                .hasMessage("outputLen '0' is not a whole number >= 1; expected tokens to generate per sequence,"
                        + " e.g. -p outputLen=64");
        assertThatThrownBy(() -> GenerationSpec.of(Map.of("promptLen", "none")))
                .hasMessageStartingWith("promptLen 'none' is not a whole number >= 1");
    }

    @Test
    void refusesAPromptAndOutputBeyondTheContextAndTakesOneThatFits() throws BenchException {
        assertThatThrownBy(() -> new GenerationSpec(250, 64).check(TINY, "llama-tiny", NO_FILE))
                .hasMessage("promptLen 250 + outputLen 64 = 314 tokens is longer than the 256-token context"
                        + " of model 'llama-tiny'; expected promptLen + outputLen <= 256");
        new GenerationSpec(192, 64).check(TINY, "llama-tiny", NO_FILE);
        // a user's export that declares no context is not checked against one
        new GenerationSpec(100_000, 64).check(new DecoderLayout(2, 2, 16, 512, true, OptionalInt.empty()), "user", NO_FILE);
    }

    @Test
    void promptsAreSeededAndInsideTheVocabulary() {
        GenerationSpec spec = new GenerationSpec(50, 4);
        long[] a = spec.prompt(3, 512, 42);
        assertThat(a).hasSize(150);
        assertThat(java.util.Arrays.stream(a).allMatch(t -> t >= 0 && t < 512)).isTrue();
        assertThat(spec.prompt(3, 512, 42)).isEqualTo(a);
        assertThat(spec.prompt(3, 512, 43)).isNotEqualTo(a);
    }
}

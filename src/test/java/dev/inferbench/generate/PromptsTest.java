package dev.inferbench.generate;

import dev.inferbench.BenchException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Prompt files as the user gives them (text, JSONL), encoded by a tokenizer.json the test writes, the end-of-sequence
 * ids from the model folder's files in Hugging Face's order, and each bad file refused in one line.
 */
class PromptsTest {
    @TempDir
    Path dir;

    private Path model() throws Exception {
        TestTokenizer.write(dir, 512);
        return Files.writeString(dir.resolve("model.onnx"), "the model itself is not read here");
    }

    private Path file(String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text);
    }

    @Test
    void aTextFileGivesOnePromptPerLineEncodedByTheTokenizer() throws Exception {
        PromptFile f = PromptFile.read(file("p.txt", "t5 t17 t300\n\n  \nt1 t2\n"));
        assertThat(f.texts()).containsExactly("t5 t17 t300", "t1 t2");
        assertThat(f.lines()).containsExactly(1, 4);
        Prompts p = Prompts.encode(f, model(), 512);
        assertThat(p.ids()).containsExactly(new long[]{5, 17, 300}, new long[]{1, 2});
        assertThat(p.longest()).isEqualTo(3);
        assertThat(p.stop()).isEmpty(); // no configuration beside the model: every sequence runs to outputLen
    }

    @Test
    void aJsonlFileGivesEachLinesPromptOrTextField() throws Exception {
        PromptFile f = PromptFile.read(file("p.jsonl", "{\"prompt\": \"t5 t6\", \"id\": 1}\n{\"text\": \"t7\"}\n"));
        assertThat(Prompts.encode(f, model(), 512).ids()).containsExactly(new long[]{5, 6}, new long[]{7});
        assertThatThrownBy(() -> PromptFile.read(file("q.jsonl", "{\"prompt\": \"t1\"}\n{\"question\": \"t2\"}\n")))
                .isInstanceOf(BenchException.class)
                .hasMessage("prompt file " + dir.resolve("q.jsonl") + " line 2 has no \"prompt\" or \"text\" string"
                        + " field; expected one JSON object with a \"prompt\" or \"text\" field per line");
        assertThatThrownBy(() -> PromptFile.read(file("r.jsonl", "t1 t2\n"))).hasMessageContaining("line 1 is not JSON");
    }

    @Test
    void aMissingOrEmptyFileIsRefused() throws Exception {
        assertThatThrownBy(() -> PromptFile.read(dir.resolve("gone.txt")))
                .hasMessageStartingWith("prompt file " + dir.resolve("gone.txt") + " cannot be read (no such file)");
        assertThatThrownBy(() -> PromptFile.read(file("empty.txt", "\n \n")))
                .hasMessageStartingWith("prompt file " + dir.resolve("empty.txt") + " holds no prompt;");
        assertThat(PromptFile.of(Map.of())).isNull();
        assertThat(PromptFile.of(Map.of("prompts", "none"))).isNull();
    }

    @Test
    void aPromptFileNeedsTheTokenizerBesideTheModel() throws Exception {
        PromptFile f = PromptFile.read(file("p.txt", "t1\n"));
        Path elsewhere = Files.createDirectories(dir.resolve("bare")).resolve("model.onnx");
        assertThatThrownBy(() -> Prompts.encode(f, elsewhere, 512)).isInstanceOf(BenchException.class)
                .hasMessage("prompts=" + f + " needs the model's tokenizer, and there is no tokenizer.json beside "
                        + elsewhere + "; expected Hugging Face's tokenizer.json in " + elsewhere.getParent());
    }

    @Test
    void idsOutsideTheVocabularyAndPromptsOverTheContextAreRefused() throws Exception {
        PromptFile f = PromptFile.read(file("p.txt", "t1 t2\nt3 t4 t5 t6\n"));
        assertThatThrownBy(() -> Prompts.encode(PromptFile.read(file("big.txt", "t1 t300\n")), model(), 100))
                .hasMessageContaining("line 1 encodes to token id 300, outside the model's vocabulary of 100");
        Prompts p = Prompts.encode(f, model(), 512);
        p.checkFits(6, 10, "m"); // 4 + 6 fits 10
        assertThatThrownBy(() -> p.checkFits(7, 10, "m")).isInstanceOf(BenchException.class)
                .hasMessage("prompt file " + f + " line 2 is 4 tokens; with outputLen 7 that is 11, longer than the"
                        + " 10-token context of model 'm'; expected prompt + outputLen <= 10");
    }

    @Test
    void endOfSequenceIdsComeFromGenerationConfigElseConfigElseTheTokenizerConfig() throws Exception {
        PromptFile f = PromptFile.read(file("p.txt", "t1\n"));
        Path model = model();
        file("tokenizer_config.json", "{\"eos_token\": {\"content\": \"t42\", \"special\": true}}");
        assertThat(Prompts.encode(f, model, 512).stop()).containsExactly(42);
        file("config.json", "{\"eos_token_id\": 3, \"vocab_size\": 512}");
        assertThat(Prompts.encode(f, model, 512).stop()).containsExactly(3);
        file("generation_config.json", "{\"eos_token_id\": [9, 2]}");
        Prompts p = Prompts.encode(f, model, 512);
        assertThat(p.stop()).containsExactly(2, 9);
        assertThat(p.stopSource()).isEqualTo("generation_config.json eos_token_id");
        assertThat(p.stops(9)).isTrue();
        assertThat(p.stops(3)).isFalse();
    }
}

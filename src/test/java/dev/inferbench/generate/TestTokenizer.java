package dev.inferbench.generate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.StringJoiner;

/**
 * A Hugging Face tokenizer.json made by the tests, never downloaded: a WordLevel model whose words {@code t0} to
 * {@code t<n-1>} are ids 0 to n - 1 (so that a test knows the ids of any prompt it writes), split on whitespace,
 * {@code t0} standing for unknown words.
 */
public final class TestTokenizer {
    private TestTokenizer() {
    }

    /** Writes {@code dir/tokenizer.json} with {@code words} words; returns the file. */
    public static Path write(Path dir, int words) throws IOException {
        StringJoiner vocab = new StringJoiner(",", "{", "}");
        for (int i = 0; i < words; i++) {
            vocab.add("\"t" + i + "\":" + i);
        }
        String json = "{\"version\":\"1.0\",\"truncation\":null,\"padding\":null,\"added_tokens\":[],"
                + "\"normalizer\":null,\"pre_tokenizer\":{\"type\":\"WhitespaceSplit\"},\"post_processor\":null,"
                + "\"decoder\":null,\"model\":{\"type\":\"WordLevel\",\"vocab\":" + vocab + ",\"unk_token\":\"t0\"}}";
        Files.createDirectories(dir);
        return Files.writeString(dir.resolve(Prompts.TOKENIZER), json);
    }
}

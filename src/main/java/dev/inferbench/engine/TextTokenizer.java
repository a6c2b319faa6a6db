package dev.inferbench.engine;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import dev.inferbench.BenchException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalLong;

/**
 * A Hugging Face tokenizer read from a model's own {@code tokenizer.json} (Hugging Face's Rust tokenizers through DJL's
 * JNI): what turns a prompt's text into the ids a decoder reads, with the special tokens the tokenizer adds (a BOS
 * where its post-processor says so), as {@code tokenizer(text)} does in Python. Nothing is fetched: the file is local,
 * the native library comes from the jar ({@link DjlRuntime} pins DJL's offline mode before DJL loads).
 */
public final class TextTokenizer implements AutoCloseable {
    private final HuggingFaceTokenizer tokenizer;
    private final Path file;

    private TextTokenizer(HuggingFaceTokenizer tokenizer, Path file) {
        this.tokenizer = tokenizer;
        this.file = file;
    }

    /** The tokenizer of {@code file}, a {@code tokenizer.json}; one line when it is missing or not one. */
    public static TextTokenizer open(Path file) throws BenchException {
        if (!Files.isRegularFile(file)) {
            throw new BenchException("no tokenizer at " + file + "; expected Hugging Face's tokenizer.json there");
        }
        DjlRuntime.configure(0);
        try {
            // only what the file says: no padding or truncation of our own
            return new TextTokenizer(HuggingFaceTokenizer.newInstance(file, Map.of()), file);
        } catch (IOException | RuntimeException e) {
            throw new BenchException("tokenizer " + file + " cannot be read (" + firstLine(e) + "); expected Hugging"
                    + " Face's tokenizer.json", e);
        }
    }

    /** The ids of {@code text}, with the special tokens the tokenizer adds. */
    public long[] encode(String text) {
        return tokenizer.encode(text).getIds();
    }

    /** The id of one token given by its text (a special token such as {@code </s>}), if it is one token. */
    public OptionalLong idOf(String token) {
        long[] ids = tokenizer.encode(token, false, false).getIds();
        return ids.length == 1 ? OptionalLong.of(ids[0]) : OptionalLong.empty();
    }

    public Path file() {
        return file;
    }

    @Override
    public void close() {
        tokenizer.close();
    }

    private static String firstLine(Exception e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}

package dev.inferbench.generate;

import dev.inferbench.Json;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.inferbench.BenchException;
import dev.inferbench.engine.TextTokenizer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;

/**
 * A prompt file's prompts as token ids, encoded by the tokenizer beside the model ({@code tokenizer.json} in the model
 * file's folder, as Hugging Face and Optimum exports ship it), and the end-of-sequence ids that stop a sequence: those
 * of {@code generation_config.json}'s {@code eos_token_id} (what Hugging Face's generate uses), else
 * {@code config.json}'s, else the id of {@code tokenizer_config.json}'s {@code eos_token}; none when the folder has
 * none of them (then every sequence runs to outputLen).
 *
 * @param ids  each prompt's ids, in the file's order
 * @param stop the end-of-sequence ids, sorted (empty: no stop)
 * @param stopSource where {@code stop} came from ("" when empty)
 */
public record Prompts(PromptFile file, List<long[]> ids, long[] stop, String stopSource) {
    public static final String TOKENIZER = "tokenizer.json";
    private static final ObjectMapper JSON = Json.mapper();

    /**
     * Encodes {@code file} with the tokenizer beside {@code modelFile}; every id must lie in the model's vocabulary.
     */
    public static Prompts encode(PromptFile file, Path modelFile, int vocab) throws BenchException {
        Path dir = modelFile.toAbsolutePath().getParent();
        Path tokenizerFile = dir.resolve(TOKENIZER);
        if (!Files.isRegularFile(tokenizerFile)) {
            throw new BenchException("prompts=" + file + " needs the model's tokenizer, and there is no " + TOKENIZER
                    + " beside " + modelFile + "; expected Hugging Face's " + TOKENIZER + " in " + dir);
        }
        try (TextTokenizer tokenizer = TextTokenizer.open(tokenizerFile)) {
            List<long[]> ids = new ArrayList<>();
            for (int i = 0; i < file.texts().size(); i++) {
                long[] p = tokenizer.encode(file.texts().get(i));
                String where = "prompt file " + file + " line " + file.lines().get(i);
                if (p.length == 0) {
                    throw new BenchException(where + " encodes to no token; expected text the tokenizer reads");
                }
                for (long id : p) {
                    if (id < 0 || id >= vocab) {
                        throw new BenchException(where + " encodes to token id " + id + ", outside the model's"
                                + " vocabulary of " + vocab + "; expected the tokenizer that belongs to the model");
                    }
                }
                ids.add(p);
            }
            Stop stop = stop(dir, tokenizer);
            return new Prompts(file, ids, stop.ids, stop.source);
        }
    }

    /** Prompts already encoded (tests), stopping at {@code stop}. */
    public static Prompts of(List<long[]> ids, long... stop) {
        List<Integer> lines = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            lines.add(i + 1);
        }
        PromptFile file = new PromptFile(Path.of("given"), ids.stream().map(Arrays::toString).toList(), lines);
        return new Prompts(file, ids, Arrays.stream(stop).sorted().toArray(), stop.length == 0 ? "" : "given");
    }

    public int size() {
        return ids.size();
    }

    /** Whether {@code token} ends a sequence. */
    public boolean stops(long token) {
        for (long s : stop) {
            if (s == token) {
                return true;
            }
        }
        return false;
    }

    /** The longest prompt's tokens, and its line in the file. */
    public int longest() {
        return ids.stream().mapToInt(p -> p.length).max().orElseThrow();
    }

    /** Refuses a prompt that with {@code outputLen} tokens after it does not fit the decoder's declared context. */
    public void checkFits(int outputLen, int context, String model) throws BenchException {
        for (int i = 0; i < ids.size(); i++) {
            int n = ids.get(i).length;
            if (n + outputLen > context) {
                throw new BenchException("prompt file " + file + " line " + file.lines().get(i) + " is " + n
                        + " tokens; with outputLen " + outputLen + " that is " + (n + outputLen) + ", longer than the "
                        + context + "-token context of model '" + model + "'; expected prompt + outputLen <= "
                        + context);
            }
        }
    }

    private record Stop(long[] ids, String source) {
    }

    private static Stop stop(Path dir, TextTokenizer tokenizer) throws BenchException {
        for (String name : List.of("generation_config.json", "config.json")) {
            JsonNode eos = read(dir.resolve(name)).path("eos_token_id");
            List<Long> ids = new ArrayList<>();
            if (eos.isIntegralNumber()) {
                ids.add(eos.asLong());
            } else if (eos.isArray()) {
                eos.forEach(e -> {
                    if (e.isIntegralNumber()) {
                        ids.add(e.asLong());
                    }
                });
            }
            if (!ids.isEmpty()) {
                return new Stop(ids.stream().mapToLong(Long::longValue).sorted().distinct().toArray(),
                        name + " eos_token_id");
            }
        }
        JsonNode token = read(dir.resolve("tokenizer_config.json")).path("eos_token");
        String text = token.isTextual() ? token.asText() : token.path("content").asText("");
        if (!text.isEmpty()) {
            OptionalLong id = tokenizer.idOf(text);
            if (id.isPresent()) {
                return new Stop(new long[]{id.getAsLong()}, "tokenizer_config.json eos_token " + text);
            }
        }
        return new Stop(new long[0], "");
    }

    /** The file's JSON, or a missing node when the folder has no such file. */
    private static JsonNode read(Path file) throws BenchException {
        if (!Files.isRegularFile(file)) {
            return JSON.missingNode();
        }
        try {
            JsonNode node = JSON.readTree(file.toFile());
            return node == null ? JSON.missingNode() : node;
        } catch (IOException e) {
            throw new BenchException(file + " cannot be read as JSON (" + e.getClass().getSimpleName() + "); expected"
                    + " the model folder's configuration as Hugging Face writes it", e);
        }
    }
}

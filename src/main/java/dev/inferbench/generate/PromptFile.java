package dev.inferbench.generate;

import dev.inferbench.Json;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.inferbench.BenchException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The prompts a user gives ({@code -p prompts=FILE}): a text file of one prompt per line, or a JSONL file
 * ({@code .jsonl}) of one JSON object per line whose {@code "prompt"} (else {@code "text"}) field is the prompt. Blank
 * lines are skipped. Read as plain text, never deserialized into objects of ours.
 *
 * @param texts the prompts, in the file's order
 * @param lines each prompt's line in the file, 1-based
 */
public record PromptFile(Path path, List<String> texts, List<Integer> lines) {
    public static final String PARAM = "prompts";
    /** {@code prompts=none}: seeded random ids of {@code promptLen} tokens, the default. */
    public static final String NONE = "none";
    private static final ObjectMapper JSON = Json.mapper();

    public PromptFile {
        texts = List.copyOf(texts);
        lines = List.copyOf(lines);
    }

    /** The cell's prompt file, or null with {@code prompts=none} (or no such parameter). */
    public static PromptFile of(Map<String, String> params) throws BenchException {
        String value = params.getOrDefault(PARAM, NONE).strip();
        return value.equals(NONE) ? null : read(Path.of(value));
    }

    public static PromptFile read(Path file) throws BenchException {
        boolean jsonl = file.getFileName() != null
                && file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".jsonl");
        String expected = jsonl ? "expected one JSON object with a \"prompt\" or \"text\" field per line"
                : "expected one prompt per line (or a .jsonl file of {\"prompt\": ...} lines)";
        List<String> all;
        try {
            all = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            throw new BenchException("prompt file " + file + " cannot be read (" + (Files.exists(file) ? e.getClass()
                    .getSimpleName() : "no such file") + "); " + expected, e);
        }
        List<String> texts = new ArrayList<>();
        List<Integer> lines = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            String line = all.get(i);
            if (line.isBlank()) {
                continue;
            }
            String text = jsonl ? field(file, i + 1, line, expected) : line;
            if (text.isBlank()) {
                throw new BenchException("prompt file " + file + " line " + (i + 1) + ": the prompt is empty; "
                        + expected);
            }
            texts.add(text);
            lines.add(i + 1);
        }
        if (texts.isEmpty()) {
            throw new BenchException("prompt file " + file + " holds no prompt; " + expected);
        }
        return new PromptFile(file, texts, lines);
    }

    private static String field(Path file, int line, String text, String expected) throws BenchException {
        JsonNode node;
        try {
            node = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new BenchException("prompt file " + file + " line " + line + " is not JSON; " + expected, e);
        }
        for (String name : List.of("prompt", "text")) {
            JsonNode value = node == null ? null : node.get(name);
            if (value != null && value.isTextual()) {
                return value.asText();
            }
        }
        throw new BenchException("prompt file " + file + " line " + line + " has no \"prompt\" or \"text\" string"
                + " field; " + expected);
    }

    @Override
    public String toString() {
        return path.toString();
    }
}

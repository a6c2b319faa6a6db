package dev.inferbench.results;

import dev.inferbench.Json;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * When one fork started and ended, as the run loop saw it (JVM start, model load, warmup and measurement together),
 * kept beside the fork's result so that copies and merges of a run folder keep it: file modification times do not
 * survive a merge of shards.
 */
public record ForkTime(Instant start, Instant end) {
    private static final ObjectMapper JSON = Json.mapper();

    public double seconds() {
        return Duration.between(start, end).toNanos() / 1e9;
    }

    public byte[] toJson() {
        return ("{\"start\":\"" + start + "\",\"end\":\"" + end + "\",\"seconds\":" + seconds() + "}\n")
                .getBytes(StandardCharsets.UTF_8);
    }

    /** The fork time kept in {@code file}; empty when the file is absent or not one (a run of an older build). */
    public static Optional<ForkTime> read(Path file) {
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            JsonNode n = JSON.readTree(file.toFile());
            return Optional.of(new ForkTime(Instant.parse(n.path("start").asText()), Instant.parse(n.path("end").asText())));
        } catch (IOException | DateTimeParseException e) {
            return Optional.empty();
        }
    }
}

package dev.inferbench.results;

import dev.inferbench.Json;
import dev.inferbench.AtomicFile;
import java.util.Optional;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.cell.Cell;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.inferbench.BenchException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * The history folder: every finished run's results, filed by the environment it ran on and the commit its jar was
 * built from, so that one cell can be followed across commits. Figures from different machines, JDKs or engine
 * versions are not one series (absolute times do not carry between machines), so the environment comes first:
 * {@code <history>/<environment key>/<commit time>-<commit>-<run>/} holds the run's {@code jmh-result.json} and
 * {@code environment.json}. A resumed run that finishes again replaces its own entry.
 */
public final class History {
    /** Where runs are appended unless {@code run.history} says otherwise. */
    public static final String DEFAULT_ROOT = "results/history";
    private static final ObjectMapper JSON = Json.mapper();
    /** The parts of environment.json that make figures comparable; the kernel's patch level and the date do not. */
    private static final List<String> ENVIRONMENT_PARTS = List.of("/cpu", "/memory.total.mb", "/os/name", "/os/arch",
            "/jdk/version", "/engines");

    /** The history folder {@code run.history} names (default {@value #DEFAULT_ROOT}); empty when set to nothing. */
    public static Optional<Path> root(BenchConfig config) {
        String root = config.get("run.history").orElse(DEFAULT_ROOT).strip();
        return root.isEmpty() ? Optional.empty() : Optional.of(Path.of(root));
    }

    /** One run in the history. */
    /** @param runTime when the run itself started (environment.json's date), beside its commit's time */
    public record Entry(String environment, String commit, String commitTime, boolean dirty, String run, Path dir,
                        String cpu, String runTime) {
        public Path result() {
            return dir.resolve(RunLayout.RESULT);
        }

        /** "dc8b9e8" or "dc8b9e8+" (built from uncommitted changes). */
        public String shortCommit() {
            return commit.substring(0, Math.min(7, commit.length())) + (dirty ? "+" : "");
        }
    }

    /** In each entry: the absolute path of the run folder it was filed from. */
    static final String SOURCE = "source.txt";

    private History() {
    }

    /**
     * Files the finished run in {@code runDir} under {@code root}. A run without results or without environment.json
     * (made by another tool) is not filed.
     *
     * @return the entry's folder, or null when there was nothing to file
     */
    public static Path append(Path runDir, Path root) throws BenchException {
        Path result = runDir.resolve(RunLayout.RESULT);
        Path env = runDir.resolve(RunLayout.ENVIRONMENT);
        if (!Files.isRegularFile(result) || !Files.isRegularFile(env)) {
            return null;
        }
        JsonNode environment = read(env);
        String commit = environment.at("/git/commit").asText("unknown");
        String time = environment.at("/git/commit.time").asText("unknown").replaceAll("[^0-9T]", "");
        Path source = runDir.toAbsolutePath().normalize();
        String name = time + "-" + commit.substring(0, Math.min(12, commit.length())) + "-" + source.getFileName();
        Path dir = root.resolve(environmentKey(environment)).resolve(name);
        try {
            // hostA/nightly and hostB/nightly share a folder name: the second gets a digest of its path instead of
            // replacing the first (a run filed again from its own folder, after a resume, replaces its entry)
            Path from = dir.resolve(SOURCE);
            if (Files.isDirectory(dir) && !(Files.isRegularFile(from) && Files.readString(from).strip().equals(source.toString()))) {
                dir = dir.resolveSibling(name + "-" + Cell.digest(source.toString()).substring(0, 8));
            }
            Files.createDirectories(dir);
            AtomicFile.write(dir.resolve(SOURCE), (source + "\n").getBytes(StandardCharsets.UTF_8));
            copy(result, dir.resolve(RunLayout.RESULT));
            copy(env, dir.resolve(RunLayout.ENVIRONMENT));
            if (Files.isRegularFile(runDir.resolve(RunLayout.PLAN))) {
                copy(runDir.resolve(RunLayout.PLAN), dir.resolve(RunLayout.PLAN)); // which forks the figures take
            }
        } catch (IOException e) {
            throw new BenchException("cannot add the run to the history " + root + ": " + e.getMessage()
                    + "; expected a writable folder (run.history in benchmarks.properties)", e);
        }
        return dir;
    }

    /** Every entry under {@code root}, by environment, then commit time, then run. */
    public static List<Entry> entries(Path root) throws BenchException {
        if (!Files.isDirectory(root)) {
            throw new BenchException(root + " is not a history folder; expected the folder runs are appended to ("
                    + DEFAULT_ROOT + " unless run.history says otherwise)");
        }
        ReceivedFolder.refuseLinks(root);
        List<Entry> entries = new ArrayList<>();
        try (Stream<Path> envs = Files.list(root)) {
            for (Path envDir : envs.filter(Files::isDirectory).toList()) {
                try (Stream<Path> runs = Files.list(envDir)) {
                    for (Path dir : runs.filter(d -> Files.isRegularFile(d.resolve(RunLayout.RESULT))).toList()) {
                        entries.add(entry(envDir.getFileName().toString(), dir));
                    }
                }
            }
        } catch (IOException e) {
            throw new BenchException("cannot read the history " + root + ": " + e.getMessage(), e);
        }
        entries.sort(Comparator.comparing(Entry::environment).thenComparing(Entry::commitTime)
                .thenComparing(Entry::run));
        return entries;
    }

    private static Entry entry(String environment, Path dir) throws BenchException {
        JsonNode env = Files.isRegularFile(dir.resolve(RunLayout.ENVIRONMENT)) ? read(dir.resolve(RunLayout.ENVIRONMENT))
                : JSON.createObjectNode();
        String name = dir.getFileName().toString();
        return new Entry(environment, env.at("/git/commit").asText("unknown"), env.at("/git/commit.time").asText(""),
                env.at("/git/dirty").asText("").equals("true"), name.substring(name.indexOf('-', name.indexOf('-') + 1) + 1),
                dir, env.at("/cpu/model").asText("unknown CPU"), env.at("/date").asText(""));
    }

    /** 12 hex digits of the SHA-256 of what makes two runs' figures comparable. */
    static String environmentKey(JsonNode environment) {
        StringBuilder sb = new StringBuilder();
        for (String part : ENVIRONMENT_PARTS) {
            sb.append(part).append('=').append(environment.at(part).toString()).append('\n');
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(sb.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    private static JsonNode read(Path file) throws BenchException {
        try {
            return JSON.readTree(file.toFile());
        } catch (JsonProcessingException e) {
            throw new BenchException(file + " is not valid JSON (" + e.getOriginalMessage() + "); expected the "
                    + RunLayout.ENVIRONMENT + " a run writes", e);
        } catch (IOException e) {
            throw new BenchException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        AtomicFile.writeVia(to, tmp -> Files.copy(from, tmp, LinkOption.NOFOLLOW_LINKS));
    }
}

package dev.inferbench.commits;

import dev.inferbench.AtomicFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The folder of one comparison of commits: the two run folders ({@code base/}, {@code head/}) with their launchers'
 * logs beside them, and the comparison's own records (pair-order.txt, machine.tsv, pair-time.tsv, where.tsv), each
 * written a line at a time as the pairs run.
 */
record ComparisonFolder(Path path) {

    /** The forks that landed in {@code side}'s run folder. */
    int landed(String side) {
        Path forks = path.resolve(side).resolve("forks");
        if (!Files.isDirectory(forks)) {
            return 0;
        }
        try (Stream<Path> s = Files.walk(forks)) {
            return (int) s.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith("fork-") && n.endsWith(".json") && !n.endsWith(".time.json")
                            && !n.endsWith(".record.json"))
                    .count();
        } catch (IOException e) {
            return 0;
        }
    }

    /** Starts the record {@code name} with its first line. */
    void write(String name, String line) throws Stop {
        try {
            AtomicFile.write(path.resolve(name), (line + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw Stop.failure("cannot write " + path.resolve(name) + ": " + e.getMessage());
        }
    }

    void append(String name, String line) throws Stop {
        try {
            AtomicFile.appendLine(path.resolve(name), line);
        } catch (IOException e) {
            throw Stop.failure("cannot write " + path.resolve(name) + ": " + e.getMessage());
        }
    }
}

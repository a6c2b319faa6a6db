package dev.inferbench.run;

import dev.inferbench.cell.Cell;
import dev.inferbench.AtomicFile;
import dev.inferbench.results.RunLayout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** Why forks failed: one text record per failed fork (its reason first, then what the fork left), kept per cell. */
public final class FailureStore {
    private static final Pattern FORK_NUMBER = Pattern.compile("fork-(\\d+)\\..*");

    private final RunLayout layout;

    FailureStore(RunLayout layout) {
        this.layout = layout;
    }

    public void save(Cell cell, int fork, String text) throws IOException {
        Path file = layout.failure(cell.id(), fork);
        Files.createDirectories(file.getParent());
        AtomicFile.write(file, text.getBytes(StandardCharsets.UTF_8));
    }

    /** Why forks failed, by cell: the first line of the record of the lowest-numbered failed fork. */
    public Map<Cell, String> reasons(List<Cell> cells) throws IOException {
        Map<Cell, String> out = new LinkedHashMap<>();
        for (Cell cell : cells) {
            Path d = layout.cellFailures(cell.id());
            if (!Files.isDirectory(d)) {
                continue;
            }
            try (Stream<Path> files = Files.list(d)) {
                // by fork number: as text, fork-10.txt would come before fork-2.txt
                Optional<Path> first = files.filter(f -> f.getFileName().toString().endsWith(".txt"))
                        .min(Comparator.comparingInt(FailureStore::forkNumber));
                if (first.isPresent()) {
                    out.put(cell, Files.readString(first.get()).lines().findFirst().orElse("failed"));
                }
            }
        }
        return out;
    }

    /** N of a file named fork-N.*, or the largest int when the name holds no fork number. */
    private static int forkNumber(Path file) {
        Matcher m = FORK_NUMBER.matcher(file.getFileName().toString());
        return m.matches() ? Integer.parseInt(m.group(1)) : Integer.MAX_VALUE;
    }
}

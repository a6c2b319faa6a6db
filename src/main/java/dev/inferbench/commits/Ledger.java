package dev.inferbench.commits;

import dev.inferbench.AtomicFile;
import dev.inferbench.BenchException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The power ledger's file: tab-separated, one line per comparison under a header line, read by its header's names
 * (a column added later leaves the old lines readable) and appended to one line at a time, each time written whole
 * ({@link AtomicFile}), so that a proof killed at any moment leaves every comparison that ended, and never half a
 * line. It is data: nothing in it is run or followed.
 */
final class Ledger {
    static final List<String> COLUMNS = List.of("when", "commit", "cell", "slowdown_pct", "budget", "pairs", "ratio",
            "lower", "upper", "verdict", "exit", "disturbed_left_out", "machine", "mode");
    static final String HEADER = String.join("\t", COLUMNS);

    private final Path file;

    Ledger(Path file) {
        this.file = file;
    }

    Path file() {
        return file;
    }

    boolean exists() {
        return Files.isRegularFile(file);
    }

    /** A new ledger gets the header; an existing one must start with it. */
    void prepare() throws BenchException, IOException {
        if (!Files.exists(file)) {
            AtomicFile.write(file, (HEADER + "\n").getBytes(StandardCharsets.UTF_8));
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !lines.get(0).equals(HEADER)) {
            throw new BenchException(file + " does not start with power-ledger's header; expected a ledger it wrote");
        }
    }

    /** One comparison's line, added at the end. */
    void append(List<String> fields) throws IOException {
        byte[] before = Files.readAllBytes(file);
        byte[] line = (String.join("\t", fields) + "\n").getBytes(StandardCharsets.UTF_8);
        byte[] after = new byte[before.length + line.length];
        System.arraycopy(before, 0, after, 0, before.length);
        System.arraycopy(line, 0, after, before.length, line.length);
        AtomicFile.write(file, after);
    }

    /** Every line under the header, by the header's column names ("" for a field a short line lacks). */
    List<Map<String, String>> rows() throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        List<Map<String, String>> rows = new ArrayList<>();
        if (lines.isEmpty()) {
            return rows;
        }
        String[] names = lines.get(0).split("\t", -1);
        for (String line : lines.subList(1, lines.size())) {
            if (line.isEmpty()) {
                continue;
            }
            String[] values = line.split("\t", -1);
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < names.length; i++) {
                row.put(names[i], i < values.length ? values[i] : "");
            }
            rows.add(row);
        }
        return rows;
    }
}

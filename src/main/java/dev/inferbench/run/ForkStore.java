package dev.inferbench.run;

import dev.inferbench.BenchException;
import dev.inferbench.cell.Cell;
import dev.inferbench.AtomicFile;
import dev.inferbench.results.ForkTime;
import dev.inferbench.results.RunLayout;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.RunResult;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The landed forks of a run folder: each fork's whole result as plain data ({@link ForkRecord}, for lossless
 * merging), its JMH JSON (for anyone reading the folder) and when it ran, every file written whole. A fork has landed
 * when its record is there. A run folder may come from elsewhere (a CI shard, a colleague's run): nothing in it is
 * deserialized, and a folder of an older build holding Java-serialized forks is refused, not read.
 */
public final class ForkStore {
    private static final Pattern FORK_FILE = Pattern.compile(RunLayout.forkName(0).replace("0", "(\\d+)")
            + Pattern.quote(RunLayout.FORK_RESULT_SUFFIX));
    private static final Pattern LEGACY_FORK_FILE = Pattern.compile(RunLayout.forkName(0).replace("0", "\\d+")
            + Pattern.quote(RunLayout.LEGACY_FORK_RESULT_SUFFIX));

    private static final long MIB = 1L << 20;
    /** Far above a real fork's record (a SampleTime fork with histograms is a few MiB), far below the heap. */
    private static final long MAX_RECORD_BYTES = 256 * MIB;

    private final RunLayout layout;
    private final Map<Path, Read> cache = new HashMap<>();

    ForkStore(RunLayout layout) {
        this.layout = layout;
    }

    public Path cellDir(Cell cell) {
        return layout.cellForks(cell.id());
    }

    /** The fork's own folder, for files written while it runs; created on demand. */
    public Path forkDir(Cell cell, int fork) throws IOException {
        return Files.createDirectories(layout.forkFiles(cell.id(), fork));
    }

    /** Keeps one fork's result, and clears a failure recorded for the same fork number by an earlier attempt. */
    public void save(Cell cell, int fork, RunResult result, ForkTime time) throws IOException {
        Files.createDirectories(cellDir(cell));
        ByteArrayOutputStream json = new ByteArrayOutputStream();
        JmhResultWriter.writeJson(List.of(result), json);
        AtomicFile.write(layout.forkJson(cell.id(), fork), json.toByteArray());
        AtomicFile.write(layout.forkTime(cell.id(), fork), time.toJson());
        // the record last: its presence is what marks the fork as landed
        AtomicFile.write(layout.forkResult(cell.id(), fork), ForkRecord.of(result).toJson());
        Files.deleteIfExists(layout.failure(cell.id(), fork));
    }

    /**
     * Reads every landed fork of {@code cells}, so that a folder holding a fork that cannot be read is refused before
     * anything runs or is written (resume, merge).
     */
    public void check(List<Cell> cells) throws BenchException {
        for (Cell cell : cells) {
            landed(cell);
        }
    }

    /**
     * The landed forks of a cell, by fork number. A fork file of an older build's Java-serialized format is refused
     * (one line naming it), unread.
     */
    public Map<Integer, RunResult> landed(Cell cell) throws BenchException {
        Map<Integer, RunResult> forks = new TreeMap<>();
        Path cellDir = cellDir(cell);
        if (!Files.isDirectory(cellDir)) {
            return forks;
        }
        try (Stream<Path> files = Files.list(cellDir)) {
            for (Path f : files.toList()) {
                String name = f.getFileName().toString();
                if (LEGACY_FORK_FILE.matcher(name).matches()) {
                    throw new BenchException(f + " is a fork result Java-serialized by an older inferbench, which is"
                            + " not read (deserializing a file from elsewhere can run code); expected fork-N"
                            + RunLayout.FORK_RESULT_SUFFIX + ": finish the run with the build that started it, or"
                            + " run its cells again");
                }
                Matcher m = FORK_FILE.matcher(name);
                if (m.matches()) {
                    forks.put(forkNumber(f, m.group(1)), ofCell(cell, f, cached(f)));
                }
            }
        } catch (IOException e) {
            throw new BenchException("cannot read " + cellDir + ": " + OneLine.of(e), e);
        }
        return forks;
    }

    /** The N of {@code fork-N}; one past an int is refused in one line, as any other malformed name would be. */
    private static int forkNumber(Path file, String digits) throws BenchException {
        String n = digits.replaceFirst("^0+(?=.)", "");
        if (n.length() > 10 || Long.parseLong(n) > Integer.MAX_VALUE) {
            throw new BenchException(file + " is numbered past " + Integer.MAX_VALUE + "; expected fork-N"
                    + RunLayout.FORK_RESULT_SUFFIX + " as inferbench names its forks");
        }
        return Integer.parseInt(n);
    }

    /**
     * A landed fork's result, read once per file: the loop rebuilds jmh-result.json from every landed fork
     * after each one, and reading every record again each time made a run's bookkeeping grow with the square of its
     * forks. The directory is still listed each time, so a fork file that is gone is gone here too.
     */
    private RunResult cached(Path file) throws BenchException {
        long modified;
        try {
            modified = Files.getLastModifiedTime(file).toMillis();
        } catch (IOException e) {
            throw new BenchException("cannot read the fork result " + file + ": " + OneLine.of(e), e);
        }
        Read read = cache.get(file);
        if (read == null || read.modified() != modified) {
            read = new Read(modified, read(file));
            cache.put(file, read);
        }
        return read.result();
    }

    /** {@code fork}, when it is a fork of {@code cell}: merged with the cell's others, another's would not combine. */
    private static RunResult ofCell(Cell cell, Path file, RunResult fork) throws BenchException {
        BenchmarkParams p = fork.getParams();
        boolean same = p.getBenchmark().equals(cell.benchmark()) && p.getMode().shortLabel().equals(cell.mode())
                && cell.params().entrySet().stream().allMatch(e -> e.getValue().equals(p.getParam(e.getKey())));
        if (!same) {
            throw new BenchException(file + " holds a fork of " + p.getBenchmark() + " (" + p.getMode().shortLabel()
                    + ") " + p.getParamsKeys().stream().map(k -> k + "=" + p.getParam(k)).toList()
                    + "; expected one of the cell " + cell.label());
        }
        return fork;
    }

    /** A fork result and the modification time of the file it was read from. */
    private record Read(long modified, RunResult result) {
    }

    private static RunResult read(Path file) throws BenchException {
        byte[] bytes;
        try {
            if (Files.size(file) > MAX_RECORD_BYTES) {
                throw new BenchException(file + " is larger than a fork record can be (" + MAX_RECORD_BYTES / MIB
                        + " MiB); expected a file written by inferbench");
            }
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new BenchException("cannot read the fork result " + file + ": " + OneLine.of(e), e);
        }
        try {
            return ForkRecord.read(bytes);
        } catch (IllegalArgumentException e) {
            throw new BenchException(file + " is not a fork record (" + OneLine.of(e)
                    + "); expected a file written by inferbench", e);
        }
    }
}

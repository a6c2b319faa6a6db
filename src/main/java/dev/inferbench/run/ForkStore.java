package dev.inferbench.run;

import dev.inferbench.BenchException;
import dev.inferbench.cell.Cell;
import dev.inferbench.results.AtomicFile;
import dev.inferbench.results.ForkTime;
import dev.inferbench.results.RunLayout;
import org.openjdk.jmh.results.RunResult;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
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
 * The landed forks of a run folder: each fork's JMH objects (for lossless merging), its JMH JSON (for anyone reading
 * the folder) and when it ran, every file written whole. A fork has landed when its {@code .ser} file is there.
 */
public final class ForkStore {
    private static final Pattern FORK_FILE = Pattern.compile(RunLayout.forkName(0).replace("0", "(\\d+)")
            + Pattern.quote(RunLayout.FORK_RESULT_SUFFIX));

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
        ByteArrayOutputStream ser = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(ser)) {
            out.writeObject(result);
        }
        // the .ser file last: its presence is what marks the fork as landed
        AtomicFile.write(layout.forkResult(cell.id(), fork), ser.toByteArray());
        Files.deleteIfExists(layout.failure(cell.id(), fork));
    }

    /** The landed forks of a cell, by fork number. */
    public Map<Integer, RunResult> landed(Cell cell) throws BenchException {
        Map<Integer, RunResult> forks = new TreeMap<>();
        Path cellDir = cellDir(cell);
        if (!Files.isDirectory(cellDir)) {
            return forks;
        }
        try (Stream<Path> files = Files.list(cellDir)) {
            for (Path f : files.toList()) {
                Matcher m = FORK_FILE.matcher(f.getFileName().toString());
                if (m.matches()) {
                    forks.put(Integer.parseInt(m.group(1)), cached(f));
                }
            }
        } catch (IOException e) {
            throw new BenchException("cannot read " + cellDir + ": " + OneLine.of(e), e);
        }
        return forks;
    }

    /**
     * A landed fork's result, deserialized once per file: the loop rebuilds jmh-result.json from every landed fork
     * after each one, and reading every .ser again each time made a run's bookkeeping grow with the square of its
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

    /** A fork result and the modification time of the file it was read from. */
    private record Read(long modified, RunResult result) {
    }

    private static RunResult read(Path file) throws BenchException {
        try (InputStream in = Files.newInputStream(file); ObjectInputStream obj = new ObjectInputStream(in)) {
            return (RunResult) obj.readObject();
        } catch (IOException | ClassNotFoundException | ClassCastException e) {
            throw new BenchException("cannot read the fork result " + file + " (" + OneLine.of(e)
                    + "); expected a file written by the same version of inferbench", e);
        }
    }
}

package dev.inferbench.run;

import org.openjdk.jmh.runner.WorkloadParams;
import dev.inferbench.cell.Cell;
import dev.inferbench.BenchException;
import dev.inferbench.results.ForkTime;
import dev.inferbench.results.RunLayout;
import dev.inferbench.results.jmh.MeasuredCell;
import dev.inferbench.results.jmh.JmhJson;
import java.io.ByteArrayInputStream;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A run folder as the run loop keeps it ({@link RunLayout} names its files). Every file appears complete or not at
 * all (temp file + rename), so a kill at any moment leaves a folder that can be read and resumed.
 */
public final class RunStore {
    private static final Pattern FORK_FILE = Pattern.compile(RunLayout.forkName(0).replace("0", "(\\d+)")
            + Pattern.quote(RunLayout.FORK_RESULT_SUFFIX));

    private final Path dir;
    private final RunLayout layout;
    private final Map<Path, Read> forkCache = new HashMap<>();
    private final Map<Cell, CellJson> jsonCache = new HashMap<>();

    private RunStore(Path dir) {
        this.dir = dir;
        this.layout = RunLayout.of(dir);
    }

    /** A new run in {@code dir}, which must not exist or be empty. */
    public static RunStore create(Path dir, Plan plan) throws BenchException {
        if (!isEmptyOrAbsent(dir)) {
            throw new BenchException("run folder " + dir + " is not empty; expected a new or empty folder "
                    + "(or --resume " + dir + " to continue the run in it)");
        }
        try {
            Files.createDirectories(dir);
            RunStore store = new RunStore(dir);
            store.writePlan(plan);
            // a valid (empty) result from the start: readers never find the folder without one
            store.rebuildResult(List.of());
            return store;
        } catch (IOException e) {
            throw new BenchException("cannot create run folder " + dir + ": " + OneLine.of(e)
                    + "; expected a writable place (run.resultsDir in benchmarks.properties)", e);
        }
    }

    private static boolean isEmptyOrAbsent(Path dir) {
        if (!Files.exists(dir)) {
            return true;
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.findAny().isEmpty();
        } catch (IOException e) {
            return false;
        }
    }

    /** An existing run: a folder with a plan.json. */
    public static RunStore open(Path dir) throws BenchException {
        if (!Files.isRegularFile(RunLayout.of(dir).plan())) {
            throw new BenchException(dir + " is not a run folder (no " + RunLayout.PLAN + "); expected a folder made by a run, "
                    + "e.g. results/20261122-101500-abc1234");
        }
        return new RunStore(dir);
    }

    public Path dir() {
        return dir;
    }

    public RunLayout layout() {
        return layout;
    }

    public Plan plan() throws BenchException {
        Path file = layout.plan();
        try {
            return Plan.fromJson(Files.readString(file, StandardCharsets.UTF_8), file.toString());
        } catch (IOException e) {
            throw new BenchException("cannot read " + file + ": " + OneLine.of(e), e);
        }
    }

    public void writePlan(Plan plan) throws IOException {
        writeAtomically(layout.plan(), plan.toJson().getBytes(StandardCharsets.UTF_8));
    }

    public Path cellDir(Cell cell) {
        return layout.cellForks(cell.id());
    }

    /** The fork's own folder, for files written while it runs; created on demand. */
    public Path forkDir(Cell cell, int fork) throws IOException {
        return Files.createDirectories(layout.forkFiles(cell.id(), fork));
    }

    /**
     * Keeps one fork's result: JMH's objects for lossless merging, JMH's JSON for anyone reading the folder, and
     * when the fork ran.
     */
    public void saveFork(Cell cell, int fork, RunResult result, ForkTime time) throws IOException {
        Files.createDirectories(cellDir(cell));
        ByteArrayOutputStream json = new ByteArrayOutputStream();
        writeJson(List.of(result), json);
        writeAtomically(layout.forkJson(cell.id(), fork), json.toByteArray());
        writeAtomically(layout.forkTime(cell.id(), fork), time.toJson());
        ByteArrayOutputStream ser = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(ser)) {
            out.writeObject(result);
        }
        // the .ser file last: its presence is what marks the fork as landed
        writeAtomically(layout.forkResult(cell.id(), fork), ser.toByteArray());
        Files.deleteIfExists(failureFile(cell, fork));
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
                    forks.put(Integer.parseInt(m.group(1)), cachedFork(f));
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
    private RunResult cachedFork(Path file) throws BenchException {
        long modified;
        try {
            modified = Files.getLastModifiedTime(file).toMillis();
        } catch (IOException e) {
            throw new BenchException("cannot read the fork result " + file + ": " + OneLine.of(e), e);
        }
        Read read = forkCache.get(file);
        if (read == null || read.modified() != modified) {
            read = new Read(modified, readFork(file));
            forkCache.put(file, read);
        }
        return read.result();
    }

    /** A fork result and the modification time of the file it was read from. */
    private record Read(long modified, RunResult result) {
    }

    private static RunResult readFork(Path file) throws BenchException {
        try (InputStream in = Files.newInputStream(file); ObjectInputStream obj = new ObjectInputStream(in)) {
            return (RunResult) obj.readObject();
        } catch (IOException | ClassNotFoundException | ClassCastException e) {
            throw new BenchException("cannot read the fork result " + file + " (" + OneLine.of(e)
                    + "); expected a file written by the same version of inferbench", e);
        }
    }

    public void saveFailure(Cell cell, int fork, String text) throws IOException {
        Path file = failureFile(cell, fork);
        Files.createDirectories(file.getParent());
        writeAtomically(file, text.getBytes(StandardCharsets.UTF_8));
    }

    /** Why forks failed, by cell, first line of each record. */
    public Map<Cell, String> failures(List<Cell> cells) throws IOException {
        Map<Cell, String> out = new LinkedHashMap<>();
        for (Cell cell : cells) {
            Path d = layout.cellFailures(cell.id());
            if (!Files.isDirectory(d)) {
                continue;
            }
            try (Stream<Path> files = Files.list(d)) {
                // by fork number: as text, fork-10.txt would come before fork-2.txt
                Optional<Path> first = files.filter(f -> f.getFileName().toString().endsWith(".txt"))
                        .min(Comparator.comparingInt(RunStore::forkNumber));
                if (first.isPresent()) {
                    out.put(cell, Files.readString(first.get()).lines().findFirst().orElse("failed"));
                }
            }
        }
        return out;
    }

    /** N of a file named fork-N.*, or the largest int when the name holds no fork number. */
    private static int forkNumber(Path file) {
        Matcher m = Pattern.compile("fork-(\\d+)\\..*").matcher(file.getFileName().toString());
        return m.matches() ? Integer.parseInt(m.group(1)) : Integer.MAX_VALUE;
    }

    private Path failureFile(Cell cell, int fork) {
        return layout.failure(cell.id(), fork);
    }

    /** One result per cell with at least one landed fork, forks merged as JMH merges its own, in plan order. */
    public List<RunResult> merged(List<Cell> cells) throws BenchException {
        List<RunResult> out = new ArrayList<>();
        for (Cell cell : cells) {
            Map<Integer, RunResult> forks = landed(cell);
            if (!forks.isEmpty()) {
                out.add(merge(forks.values()));
            }
        }
        return out;
    }

    /**
     * The cell's landed forks as the one cell model every reader uses (what jmh-result.json holds for the cell, read
     * by {@link JmhJson}); empty before its first fork lands.
     */
    public Optional<MeasuredCell> result(Cell cell) throws BenchException {
        List<RunResult> merged = merged(List.of(cell));
        if (merged.isEmpty()) {
            return Optional.empty();
        }
        ByteArrayOutputStream json = new ByteArrayOutputStream();
        writeJson(merged, json);
        return JmhJson.read(new ByteArrayInputStream(json.toByteArray()), cellDir(cell).toString()).stream().findFirst();
    }

    /** Every cell of the run's jmh-result.json, in plan order, as reports and compare read them. */
    public List<MeasuredCell> results() throws BenchException {
        return JmhJson.read(layout.result());
    }

    /**
     * Rewrites jmh-result.json from everything landed; always a complete, valid JMH file, the bytes JMH's writer gives
     * for all the merged cells. Each cell's part is written by JMH's writer again only when the cell has a new fork:
     * writing every cell after every fork made a run's bookkeeping grow with the square of its forks.
     */
    public List<RunResult> rebuildResult(List<Cell> cells) throws BenchException, IOException {
        List<RunResult> merged = new ArrayList<>();
        List<JmhEnvelope> parts = new ArrayList<>();
        for (Cell cell : cells) {
            Map<Integer, RunResult> forks = landed(cell);
            if (forks.isEmpty()) {
                continue;
            }
            RunResult result = merge(forks.values());
            merged.add(result);
            CellJson json = jsonCache.get(cell);
            if (json == null || !json.forks().equals(forks.keySet())) {
                json = new CellJson(Set.copyOf(forks.keySet()), JmhEnvelope.of(jsonOf(List.of(result))));
                jsonCache.put(cell, json);
            }
            parts.add(json.part());
        }
        // every part carries the same envelope: JMH's writer wraps each result alike
        String text = parts.isEmpty() ? jsonOf(List.of())
                : parts.get(0).around(parts.stream().map(JmhEnvelope::body).toList());
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        writeAtomically(layout.result(), bytes);
        return merged;
    }

    /** One cell's part of jmh-result.json, and the fork numbers it was written from. */
    private record CellJson(Set<Integer> forks, JmhEnvelope part) {
    }

    private static String jsonOf(Collection<RunResult> results) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writeJson(results, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    static RunResult merge(Collection<RunResult> forks) {
        List<BenchmarkResult> results = new ArrayList<>();
        forks.forEach(f -> results.addAll(f.getBenchmarkResults()));
        BenchmarkParams p = forks.iterator().next().getParams();
        BenchmarkParams all = new BenchmarkParams(p.getBenchmark(), p.generatedBenchmark(), p.shouldSynchIterations(),
                p.getThreads(), p.getThreadGroups(), p.getThreadGroupLabels(), results.size(), p.getWarmupForks(),
                p.getWarmup(), p.getMeasurement(), p.getMode(), workload(p), p.getTimeUnit(), p.getOpsPerInvocation(),
                p.getJvm(), p.getJvmArgs(), p.getJdkVersion(), p.getVmName(), p.getVmVersion(), p.getJmhVersion(),
                p.getTimeout());
        return new RunResult(all, results);
    }

    private static WorkloadParams workload(BenchmarkParams p) {
        WorkloadParams w = new WorkloadParams();
        int order = 0;
        for (String k : p.getParamsKeys()) {
            w.put(k, p.getParam(k), order++);
        }
        return w;
    }

    /** Writes JMH's JSON through JMH's own writer; the stream stays open. */
    public static void writeJson(Collection<RunResult> results, OutputStream out) {
        PrintStream ps = new PrintStream(out, false, StandardCharsets.UTF_8);
        ResultFormatFactory.getInstance(ResultFormatType.JSON, ps).writeOut(results);
        ps.flush();
    }

    /** Writes {@code results} in any of JMH's formats to {@code file} (for -rff). */
    public static void writeAs(ResultFormatType type, Collection<RunResult> results, Path file) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(bytes, false, StandardCharsets.UTF_8);
        ResultFormatFactory.getInstance(type, ps).writeOut(results);
        ps.flush();
        Path parent = file.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        writeAtomically(file.toAbsolutePath(), bytes.toByteArray());
    }

    /** Writes {@code bytes} to {@code target} whole: a temp file beside it, then a rename; readable by all. */
    public static void writeAtomically(Path target, byte[] bytes) throws IOException {
        Path tmp = Files.createTempFile(target.getParent(), "." + target.getFileName(), ".part");
        try {
            Files.write(tmp, bytes);
            // temp files are owner-only; results are shared like any file the user writes
            if (Files.getFileStore(tmp).supportsFileAttributeView(PosixFileAttributeView.class)) {
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-r--r--"));
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            try {
                Files.deleteIfExists(tmp);
            } catch (NoSuchFileException ignored) {
                // moved into place
            }
        }
    }
}

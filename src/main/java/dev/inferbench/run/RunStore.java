package dev.inferbench.run;

import dev.inferbench.BenchException;
import dev.inferbench.AtomicFile;
import dev.inferbench.results.ReceivedFolder;
import dev.inferbench.results.RunLayout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * A run folder as the run loop keeps it ({@link RunLayout} names its files): its plan, and the three stores beside it
 * (the landed forks, the failures, the merged result file). Every file appears complete or not at all
 * ({@link AtomicFile}), so a kill at any moment leaves a folder that can be read and resumed.
 */
public final class RunStore {
    private final Path dir;
    private final RunLayout layout;
    private final ForkStore forks;
    private final FailureStore failures;
    private final ResultFile result;

    private RunStore(Path dir) {
        this.dir = dir;
        this.layout = RunLayout.of(dir);
        this.forks = new ForkStore(layout);
        this.failures = new FailureStore(layout);
        this.result = new ResultFile(layout, forks);
    }

    /** A new run in {@code dir}, which must not exist or be empty. */
    public static RunStore create(Path dir, Plan plan) throws BenchException {
        if (!isEmptyOrAbsent(dir)) {
            throw new BenchException("run folder " + dir + " is not empty; expected a new or empty folder "
                    + "(or --resume " + dir + " to continue the run in it)");
        }
        try {
            Files.createDirectories(dir);
            FolderLock.take(dir);
            if (!isEmptyOrAbsent(dir)) {
                throw new BenchException("run folder " + dir + " was filled by another run as this one started;"
                        + " expected a new or empty folder");
            }
            RunStore store = new RunStore(dir);
            store.writePlan(plan);
            // a valid (empty) result from the start: readers never find the folder without one
            store.result.rebuild(List.of());
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
            // a lock file alone is what a run killed before its plan landed leaves
            return s.allMatch(p -> p.getFileName().toString().equals(FolderLock.FILE));
        } catch (IOException e) {
            return false;
        }
    }

    /** An existing run to continue: a folder with a plan.json, held by this process alone ({@link FolderLock}). */
    public static RunStore open(Path dir) throws BenchException {
        RunStore store = read(dir);
        FolderLock.take(dir);
        return store;
    }

    /** An existing run to read (a shard to merge), which may sit on a read-only volume: no lock is taken. */
    public static RunStore read(Path dir) throws BenchException {
        if (Files.isSymbolicLink(RunLayout.of(dir).plan()) || !Files.isRegularFile(RunLayout.of(dir).plan())) {
            ReceivedFolder.refuseLinks(dir);
            throw new BenchException(dir + " is not a run folder (no " + RunLayout.PLAN + "); expected a folder made by a run, "
                    + "e.g. results/<yyyyMMdd-HHmmss>-<git sha>");
        }
        ReceivedFolder.refuseLinks(dir);
        return new RunStore(dir);
    }

    public Path dir() {
        return dir;
    }

    /** The command that continues this run, as every "nothing is lost" message gives it. */
    public String resumeCommand() {
        return "java -jar target/benchmarks.jar --resume " + dir;
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
        AtomicFile.write(layout.plan(), plan.toJson().getBytes(StandardCharsets.UTF_8));
    }

    /** Each fork's files, as the loop lands them. */
    public ForkStore forks() {
        return forks;
    }

    /** Why forks failed. */
    public FailureStore failures() {
        return failures;
    }

    /** The merged result file that the summary, reports and compare read. */
    public ResultFile result() {
        return result;
    }
}

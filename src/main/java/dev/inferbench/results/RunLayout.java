package dev.inferbench.results;

import dev.inferbench.cell.Cell;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Every path in a run folder, named once. Whoever writes or reads a run folder asks this class where a file is:
 * <pre>
 *   plan.json                               the plan (cells, forks, settings)
 *   jmh-result.json                         every landed fork merged, rebuilt after each one (a valid JMH file)
 *   summary.txt                             the table printed at the end of the run
 *   environment.json                        machine, JVM, engines and build the run measured on
 *   run.properties                          the command, commit and start and end of the run
 *   forks/&lt;cell-id&gt;/fork-N.json            JMH's JSON of that one fork (a valid JMH result file)
 *   forks/&lt;cell-id&gt;/fork-N.record.json     the whole result as plain data (per-thread results, policies), merged without loss
 *   forks/&lt;cell-id&gt;/fork-N.time.json       when the fork started and ended (its wall time), written with its result
 *   forks/&lt;cell-id&gt;/fork-N/                the fork's own files while it runs (profiler output)
 *   failed/&lt;cell-id&gt;/fork-N.txt            why a fork produced no result
 *   flames/&lt;cell-id&gt;/...                    flame graphs per fork and merged (--flame)
 *   op-profile/&lt;cell-id&gt;/...               ONNX Runtime's operator profile (--op-profile)
 *   tail/&lt;cell-id&gt;/fork-N/                slow-calls.json and events.jfr: each slow call's causes (--tail)
 *   tail/tail.json                          each cell's tail table (--tail)
 *   where/pair-N/&lt;cell-id&gt;.json           the operator pass of pair N of an interleaved comparison
 *   layers/activation-...json               activation memory per layer of each model, batch, seqLen, precision
 *   report/                                 Markdown, HTML, CSV, plots and exports
 * </pre>
 *
 * @param dir the run folder
 */
public record RunLayout(Path dir) {
    public static final String PLAN = "plan.json";
    public static final String RESULT = "jmh-result.json";
    public static final String SUMMARY = "summary.txt";
    public static final String ENVIRONMENT = "environment.json";
    public static final String RUN_INFO = "run.properties";
    public static final String FORKS = "forks";
    public static final String FAILED = "failed";
    public static final String FLAMES = "flames";
    /** {@code --tail}: per cell and fork the slow calls, their causes and the JFR recording; tail.json per run. */
    public static final String TAIL = "tail";
    public static final String OP_PROFILE = "op-profile";
    public static final String WHERE = "where";
    public static final String LAYERS = "layers";
    public static final String REPORT = "report";
    /** JVM crash logs of the steps run in a JVM of their own (run.ChildJvm). */
    public static final String CRASHES = "crashes";

    /** The landed fork's whole result as plain data: its presence marks the fork as landed (written last). */
    public static final String FORK_RESULT_SUFFIX = ".record.json";
    /**
     * What marked a landed fork in folders of builds that kept JMH's objects Java-serialized. Such a file is never
     * read (deserializing a file from elsewhere can run code); resume and merge refuse a folder that holds one.
     */
    public static final String LEGACY_FORK_RESULT_SUFFIX = ".ser";
    /** When the fork started and ended. */
    public static final String FORK_TIME_SUFFIX = ".time.json";

    public static RunLayout of(Path dir) {
        return new RunLayout(dir);
    }

    /** The JMH result file of a run folder, or the file itself when {@code runOrFile} is a JMH JSON file. */
    public static Path resultOf(Path runOrFile) {
        return Files.isDirectory(runOrFile) ? runOrFile.resolve(RESULT) : runOrFile;
    }

    public Path plan() {
        return dir.resolve(PLAN);
    }

    public Path result() {
        return dir.resolve(RESULT);
    }

    public Path summary() {
        return dir.resolve(SUMMARY);
    }

    public Path environment() {
        return dir.resolve(ENVIRONMENT);
    }

    public Path runInfo() {
        return dir.resolve(RUN_INFO);
    }

    public Path forks() {
        return dir.resolve(FORKS);
    }

    public Path failed() {
        return dir.resolve(FAILED);
    }

    public Path flames() {
        return dir.resolve(FLAMES);
    }

    public Path tail() {
        return dir.resolve(TAIL);
    }

    /** {@code --tail}'s folder of one fork: its slow calls and JFR recording. */
    public Path tailFork(String cellId, int fork) {
        return tail().resolve(cellId).resolve("fork-" + fork);
    }

    public Path crashes() {
        return dir.resolve(CRASHES);
    }

    public Path opProfile() {
        return dir.resolve(OP_PROFILE);
    }

    /** The operator passes of an interleaved comparison, one folder per pair ({@code pair-N}). */
    public Path where() {
        return dir.resolve(WHERE);
    }

    /** The folder of pass {@code pair}. */
    public Path wherePass(int pair) {
        return where().resolve("pair-" + pair);
    }

    public Path layers() {
        return dir.resolve(LAYERS);
    }

    /** {@code layers/activation-<model>-b<batch>-s<seqLen>-<precision>.json}: one graph at one input size. */
    public Path activation(String model, int batch, int seqLen, String precision) {
        return layers().resolve(Cell.fileName("activation-" + model + "-b" + batch + "-s" + seqLen + "-" + precision,
                "[^A-Za-z0-9._-]") + ".json");
    }

    public Path report() {
        return dir.resolve(REPORT);
    }

    /** {@code forks/<cell-id>}: the landed forks of one cell. */
    public Path cellForks(String cellId) {
        return forks().resolve(cellId);
    }

    /** {@code failed/<cell-id>}: why the cell's forks failed. */
    public Path cellFailures(String cellId) {
        return failed().resolve(cellId);
    }

    /** {@code forks/<cell-id>/fork-N}: the fork's own files while it runs. */
    public Path forkFiles(String cellId, int fork) {
        return cellForks(cellId).resolve(forkName(fork));
    }

    public Path forkJson(String cellId, int fork) {
        return cellForks(cellId).resolve(forkName(fork) + ".json");
    }

    public Path forkResult(String cellId, int fork) {
        return cellForks(cellId).resolve(forkName(fork) + FORK_RESULT_SUFFIX);
    }

    public Path forkTime(String cellId, int fork) {
        return cellForks(cellId).resolve(forkName(fork) + FORK_TIME_SUFFIX);
    }

    public Path failure(String cellId, int fork) {
        return cellFailures(cellId).resolve(forkName(fork) + ".txt");
    }

    /** {@code fork-N}: how a fork is named in every folder of the run (forks, failed, flames). */
    public static String forkName(int fork) {
        return "fork-" + fork;
    }
}

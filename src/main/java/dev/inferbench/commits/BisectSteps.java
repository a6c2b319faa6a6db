package dev.inferbench.commits;

import dev.inferbench.AtomicFile;
import dev.inferbench.BenchException;
import dev.inferbench.ExitCode;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The bisect's oracle: one commit judged against GOOD by comparisons, each logged in the bisect's folder as
 * {@code step-N.log} with its run folders in {@code step-N} (N counts comparisons, so a rerun takes the next number
 * after {@code step-N-again}). A comparison that fails the gate marks the commit bad, one that passes good; one that
 * could not tell runs once more at twice the budget, or, with {@link #onceEach()}, skips the commit at once (its one
 * comparison already ran to the precision or budget a step and its rerun would have spent). A comparison that ends
 * in bad input or a failure ends the bisect ({@link Abort}).
 */
final class BisectSteps {
    /** How a commit was judged. */
    enum Judgement { GOOD, BAD, SKIP }

    /** One comparison: the commit, its label (its folder and log under the bisect's folder) and its exit code. */
    record Step(String sha, String label, int code) {
    }

    /** A comparison that ended without a verdict: the bisect ends with this code and one line. */
    static final class Abort extends Exception {
        final int code;

        Abort(int code, String line) {
            super(line);
            this.code = code;
        }
    }

    private final GitCall git;
    private final CommitComparison comparison;
    private final Path goodDir;
    private final Path folder;
    private final PrintStream out;
    private final List<String> args;
    private final List<Step> steps = new ArrayList<>();
    private long budgetSeconds;
    private boolean once;

    /**
     * @param goodDir the built checkout of GOOD, every comparison's base
     * @param folder  the bisect's folder: each comparison's log and run folders
     * @param args    the comparisons' own arguments (cell, JMH, --precision, --min-effect ...)
     */
    BisectSteps(GitCall git, CommitComparison comparison, Path goodDir, Path folder, List<String> args,
                long budgetSeconds, PrintStream out) {
        this.git = git;
        this.comparison = comparison;
        this.goodDir = goodDir;
        this.folder = folder;
        this.args = new ArrayList<>(args);
        this.budgetSeconds = budgetSeconds;
        this.out = out;
    }

    List<String> args() {
        return List.copyOf(args);
    }

    /** Adds arguments to every later comparison. */
    void add(String... more) {
        args.addAll(List.of(more));
    }

    /** Every later comparison asks for this precision instead of the one it was given. */
    void precision(String precision) {
        for (int i = 0; i + 1 < args.size(); i++) {
            if (args.get(i).equals("--precision")) {
                args.set(i + 1, precision);
            }
        }
    }

    void budget(long seconds) {
        budgetSeconds = seconds;
    }

    /** From now on a commit that could not tell is skipped after its one comparison. */
    void onceEach() {
        once = true;
    }

    List<Step> steps() {
        return List.copyOf(steps);
    }

    /** The log of the last comparison: the one that judged the last commit. */
    Path lastLog() {
        return log(steps.get(steps.size() - 1).label());
    }

    Path log(String label) {
        return folder.resolve(label + ".log");
    }

    Judgement judge(String sha) throws Abort, BenchException, IOException {
        String subject = git.must("log", "-1", "--format=%s", sha).strip();
        String name = sha.substring(0, 7) + " " + (subject.length() > 60 ? subject.substring(0, 60) : subject);
        String label = "step-" + (steps.size() + 1);
        int code = compare(label, sha, budgetSeconds);
        if (code == ExitCode.UNDECIDED && once) {
            out.println("[bisect-perf] " + name + ": could not tell; skipped");
            return Judgement.SKIP;
        }
        if (code == ExitCode.UNDECIDED) {
            out.println("[bisect-perf] " + name + ": could not tell; once more at twice the budget");
            label = label + "-again";
            code = compare(label, sha, 2 * budgetSeconds);
        }
        ComparisonLog log = new ComparisonLog(Files.readString(log(label), StandardCharsets.UTF_8));
        String row = log.firstRow();
        switch (code) {
            case ExitCode.OK -> {
                out.println("[bisect-perf] " + name + ": good (" + row + ")");
                return Judgement.GOOD;
            }
            case ExitCode.FAILED -> {
                out.println("[bisect-perf] " + name + ": bad, slower than good (" + row + ")");
                return Judgement.BAD;
            }
            case ExitCode.UNDECIDED -> {
                out.println("[bisect-perf] " + name + ": could not tell twice; skipped");
                return Judgement.SKIP;
            }
            default -> throw new Abort(code == ExitCode.BAD_INPUT ? ExitCode.BAD_INPUT : ExitCode.INTERNAL_ERROR,
                    "the comparison of " + sha.substring(0, 7) + " ended with exit " + code + ": " + log.reason());
        }
    }

    /** The ratio the last comparison measured on its first gated row that failed the gate. */
    Optional<Double> lastSlowdown() throws IOException {
        return new ComparisonLog(Files.readString(lastLog(), StandardCharsets.UTF_8)).failedRatio();
    }

    private int compare(String label, String sha, long seconds) throws IOException {
        List<String> call = new ArrayList<>();
        call.add(goodDir.toString());
        call.add(sha);
        call.addAll(args);
        call.addAll(List.of("--budget", seconds + "s", "--fail-on-regression", "--out",
                folder.resolve(label).toString()));
        int code;
        try (OutputStream file = AtomicFile.log(log(label), false);
             PrintStream log = new PrintStream(file, true, StandardCharsets.UTF_8)) {
            try {
                code = comparison.run(call, log, log); // one log, in the order it was written, as a terminal shows it
            } catch (BenchException e) {
                // the ending the jar gives a comparison refused this way when it is run by hand
                log.println("compare-commits: " + e.getMessage());
                code = ExitCode.BAD_INPUT;
            }
        }
        steps.add(new Step(sha, label, code));
        return code;
    }
}

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
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Which commit made it slower: git's bisect between GOOD and BAD, with a comparison of commits as its oracle
 * ({@link BisectSteps}). GOOD is built once and is the base of every step. BAD is compared first, so that a range
 * whose end is not shown slower is not bisected at all; a first comparison that could not tell runs once more at
 * twice the budget. Every later step asks whether the commit holds the regression the first one measured: its
 * minimum effect is half that slowdown (3 % to 50 %) unless the arguments give one, and, unless they give
 * {@code --precision} or {@code --forks}, it is one comparison stopped when its interval is within half that minimum
 * effect or at three times the budget, a commit still undecided then skipped. So the bisect makes one comparison a
 * step.
 *
 * <p>git's {@code bisect run} runs a program per step and cannot call back into this JVM, so the bisect is driven
 * one answer at a time ({@code git bisect good|bad|skip}) in a worktree of its own, without checking files out (the
 * comparison builds each commit from its sha): the checkout it is started from is left as it was, and the worktrees
 * go at the end, whatever the ending. Exit codes: 0 the first bad commit found, 3 none to blame (BAD not shown
 * slower, or only skipped commits left), 2 bad input or a side that does not build, 4 any other failure.
 */
public final class Bisect {
    private static final Pattern FIRST_BAD = Pattern.compile("(?m)^([0-9a-f]{40}) is the first bad commit$");
    private static final String ONLY_SKIPPED = "only 'skip'ped commits left";

    /**
     * The bisect as the command line asked for it.
     *
     * @param args              the comparisons' own arguments (cell, JMH, --offline, and --precision, --forks and
     *                          --min-effect where given), in the order given
     * @param budgetSeconds     the first step's budget; later steps run at up to three times it, or at it and twice it
     * @param out               the bisect's folder; null for results/bisect-GOOD-BAD-TIME in the checkout
     * @param offline           build GOOD without the network
     * @param paced             whether the arguments give --precision or --forks (then every step keeps them)
     * @param minEffectPercent  the minimum effect the arguments give, in percent; NaN for the measured one's half
     */
    public record Request(String good, String bad, List<String> args, long budgetSeconds, Path out, boolean offline,
                          boolean paced, double minEffectPercent) {
        public Request {
            args = List.copyOf(args);
        }
    }

    private final GitCall git;
    private final CommitComparison comparison;
    private final GoodBuild build;
    private final PrintStream out;
    private final PrintStream err;

    /** @param from a folder inside the checkout whose commits are bisected */
    public Bisect(Path from, CommitComparison comparison, GoodBuild build, PrintStream out, PrintStream err) {
        this.git = new GitCall(from);
        this.comparison = comparison;
        this.build = build;
        this.out = out;
        this.err = err;
    }

    /** @throws BenchException for bad input found before anything ran (exit 2) */
    public int run(Request request) throws BenchException {
        GitCall.Answer top = git.run("rev-parse", "--show-toplevel");
        if (!top.ok()) {
            throw new BenchException("not inside a git checkout");
        }
        GitCall repo = new GitCall(Path.of(top.firstLine()));
        String good = commit(repo, request.good());
        String bad = commit(repo, request.bad());
        if (good.equals(bad) || !repo.isAncestor(good, bad)) {
            throw new BenchException("good " + good.substring(0, 7) + " is not an ancestor of bad " + bad.substring(0, 7)
                    + "; expected an older commit first");
        }
        List<String> args = new ArrayList<>(request.args());
        if (!request.paced()) {
            args.addAll(List.of("--precision", "2%")); // the README's CI settings
        }
        String commits = repo.must("rev-list", "--count", good + ".." + bad).strip();
        Path folder = request.out() != null ? request.out() : repo.dir().resolve(Path.of("results", "bisect-"
                + good.substring(0, 7) + "-" + bad.substring(0, 7) + "-"
                + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))));
        Path state;
        try {
            folder = Files.createDirectories(folder).toAbsolutePath();
            state = Files.createTempDirectory("bisect-perf.");
        } catch (IOException e) {
            throw new BenchException("cannot create " + folder + " (" + e.getMessage() + ")", e);
        }
        try {
            return bisect(request, repo, good, bad, commits, folder, state, args);
        } catch (BisectSteps.Abort e) {
            err.println("bisect-perf: " + e.getMessage());
            return e.code;
        } catch (BenchException | IOException e) {
            err.println("bisect-perf: unexpected failure: " + e.getMessage());
            return ExitCode.INTERNAL_ERROR;
        } finally {
            cleanUp(repo, state);
        }
    }

    private int bisect(Request request, GitCall repo, String good, String bad, String commits, Path folder, Path state,
                       List<String> args) throws BisectSteps.Abort, BenchException, IOException {
        Path goodDir = state.resolve("good");
        repo.must("worktree", "add", "--detach", "--quiet", goodDir.toString(), good);
        out.println("[bisect-perf] building good " + good.substring(0, 7) + " once ...");
        Path buildLog = folder.resolve("build-good.log");
        if (!build.build(goodDir, request.offline(), buildLog)) {
            throw new BisectSteps.Abort(ExitCode.BAD_INPUT, "commit " + good.substring(0, 7) + " (good) does not build;"
                    + " see " + buildLog);
        }
        out.println("[bisect-perf] " + commits + " commits after good " + good.substring(0, 7) + " up to bad "
                + bad.substring(0, 7) + "; each step: " + String.join(" ", args) + " --budget " + request.budgetSeconds()
                + "s");
        Path bisectDir = state.resolve("bisect");
        repo.must("worktree", "add", "--detach", "--no-checkout", "--quiet", bisectDir.toString(), bad);
        GitCall tree = new GitCall(bisectDir);
        BisectSteps steps = new BisectSteps(tree, comparison, goodDir, folder, args, request.budgetSeconds(), out);

        switch (steps.judge(bad)) {
            case GOOD -> {
                err.println("bisect-perf: bad " + bad.substring(0, 7) + " is not slower than good " + good.substring(0, 7)
                        + " (see " + steps.lastLog() + "); nothing to bisect");
                return ExitCode.UNDECIDED;
            }
            case SKIP -> {
                err.println("bisect-perf: could not tell whether bad " + bad.substring(0, 7) + " is slower than good "
                        + good.substring(0, 7) + ", twice; run with a longer --budget");
                return ExitCode.UNDECIDED;
            }
            case BAD -> {
            }
        }
        double minEffect = request.minEffectPercent();
        if (Double.isNaN(minEffect)) {
            Optional<Double> ratio = steps.lastSlowdown();
            if (ratio.isEmpty()) {
                throw new BisectSteps.Abort(ExitCode.INTERNAL_ERROR, "cannot read the slowdown from the first"
                        + " comparison's gated row; see " + steps.lastLog());
            }
            // half the slowdown: a commit without the regression then reads "same" at a short budget's noise
            String e = FixedPoint.of(Math.min(50, Math.max(3, (ratio.get() - 1) * 50)), 1);
            minEffect = Double.parseDouble(e);
            steps.add("--min-effect", e + "%");
            out.println("[bisect-perf] bad is " + FixedPoint.signed((ratio.get() - 1) * 100, 1) + "% against good;"
                    + " each further step asks for a slowdown of at least " + e + "% (half of it; --min-effect sets it)");
        }
        if (!request.paced()) {
            // A commit that holds the regression (about twice the minimum effect E) is told from one without it
            // (about none) once the interval is within +-E/2: Stein's stop, which never looks at the verdict, or three
            // times the budget, what a step and its rerun at twice the budget could spend
            String precision = FixedPoint.of(minEffect / 2, 1) + "%";
            steps.precision(precision);
            steps.budget(3 * request.budgetSeconds());
            steps.onceEach();
            out.println("[bisect-perf] each further step: one comparison, until its interval is within +-" + precision
                    + " (--precision, half the minimum effect) or " + 3 * request.budgetSeconds() + "s (three times"
                    + " --budget); a commit it cannot tell then is skipped");
        }
        Path bisectLog = folder.resolve("bisect.log");
        AtomicFile.write(bisectLog, new byte[0]);
        GitCall.Answer answer = logged(bisectLog, tree.run("bisect", "start", "--no-checkout", bad, good));
        String first = null;
        while (true) {
            Matcher found = FIRST_BAD.matcher(answer.output());
            if (found.find()) {
                first = found.group(1);
                break;
            }
            if (answer.output().contains(ONLY_SKIPPED)) {
                break;
            }
            if (!answer.ok()) {
                throw new BenchException("git bisect ended with exit " + answer.code() + ": " + answer.firstLine());
            }
            String sha = tree.must("rev-parse", "--verify", "BISECT_HEAD").strip();
            String word = switch (steps.judge(sha)) {
                case GOOD -> "good";
                case BAD -> "bad";
                case SKIP -> "skip";
            };
            answer = logged(bisectLog, tree.run("bisect", word, sha));
        }
        int n = steps.steps().size();
        if (first == null) {
            err.println("bisect-perf: no single first bad commit after " + n + " comparisons (skipped commits leave it"
                    + " open); see " + bisectLog);
            String text = answer.output();
            int from = text.indexOf("first bad commit could be any of");
            if (from >= 0) {
                err.print(text.substring(text.lastIndexOf('\n', from) + 1));
            }
            return ExitCode.UNDECIDED;
        }
        String sha = first;
        String last = steps.steps().stream().filter(s -> s.sha().equals(sha) && s.code() == ExitCode.FAILED)
                .reduce((a, b) -> b).map(BisectSteps.Step::label).orElse(null);
        out.println("[bisect-perf] first bad commit: " + repo.must("log", "-1", "--format=%h %s", first).strip() + " ("
                + n + " comparisons for " + commits + " commits)");
        if (last != null) {
            ComparisonLog log = new ComparisonLog(Files.readString(steps.log(last), StandardCharsets.UTF_8));
            log.gatedRows().forEach(out::println);
            log.whereTables().forEach(out::println);
            out.println("[bisect-perf] its comparison against good: " + folder.resolve(last));
        }
        return ExitCode.OK;
    }

    private static String commit(GitCall repo, String rev) throws BenchException {
        return repo.commit(rev).orElseThrow(() -> new BenchException("unknown commit '" + rev
                + "'; expected a branch, tag or sha"));
    }

    /** git's answers go to the bisect's log as they come, as {@code git bisect run} writes them. */
    private static GitCall.Answer logged(Path log, GitCall.Answer answer) throws IOException {
        try (OutputStream o = AtomicFile.log(log, true)) {
            o.write(answer.output().getBytes(StandardCharsets.UTF_8));
        }
        return answer;
    }

    /** The bisect's state and both worktrees go, whatever the ending; nothing here changes the exit code. */
    private static void cleanUp(GitCall repo, Path state) {
        Path bisectDir = state.resolve("bisect");
        try {
            if (Files.isDirectory(bisectDir)) {
                new GitCall(bisectDir).run("bisect", "reset");
            }
            for (Path tree : List.of(bisectDir, state.resolve("good"))) {
                if (Files.isDirectory(tree)) {
                    repo.run("worktree", "remove", "--force", tree.toString());
                }
            }
        } catch (BenchException e) {
            // git could not be started at all: the prune below cannot run either, and the ending stands
        }
        try (Stream<Path> files = Files.walk(state)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temp folder left behind is the system's to clear; the ending stands
        }
        try {
            repo.run("worktree", "prune");
        } catch (BenchException e) {
            // as above
        }
    }
}

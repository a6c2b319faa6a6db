package dev.inferbench.cli;

import dev.inferbench.commits.CommitComparison;
import dev.inferbench.commits.GoodBuild;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bisect} on a scratch repository of 10 commits whose cost file plants a regression, with a stand-in for
 * compare-commits that answers from the planted cost: it finds the planted commit in at most ceil(log2 n) + 1
 * comparisons (one a step, each stopped at half its minimum effect), retries a first comparison that could not tell
 * at twice the budget, skips a later step's commit that could not tell, ends the bisect in one line on a failure,
 * refuses a program that cannot compare before it builds anything, and leaves the checkout it was started from as
 * it was.
 */
class BisectCommandTest {
    /** Commits after the good one. */
    private static final int N = 9;

    @TempDir
    Path tmp;

    record Ended(int code, String out, String err) {
    }

    /** What a scratch commit plants: its cost, and whether its comparison cannot tell or fails (with that code). */
    record Planted(int cost, boolean undecided, Integer broken) {
    }

    private final Map<String, Planted> planted = new HashMap<>();
    private final List<String> calls = new ArrayList<>();
    private final List<Path> builds = new ArrayList<>();

    /**
     * The stand-in for compare-commits, called as the bisect calls it (base: a built checkout, head: a sha): the head
     * is slower when its cost exceeds the base's; "undecided" could not tell (exit 3), "broken" exits with its code.
     */
    private final CommitComparison oracle = (args, out, err) -> {
        calls.add(String.join(" ", args.subList(1, args.size())));
        int b;
        try {
            b = Integer.parseInt(Files.readString(Path.of(args.get(0), "cost")).strip());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        Planted head = planted.get(args.get(1));
        int h = head.cost();
        if (head.broken() != null) {
            err.println("compare-commits: planted failure");
            return head.broken();
        }
        if (head.undecided()) {
            out.println("infer  time  ms/op  " + b + "  " + h + "  +0.5%  1.005 [0.950, 1.060]  same  can't tell");
            return 3;
        }
        out.println("cell   metric  unit   baseline  candidate  change  ratio 99% CI          verdict  gate");
        if (h > b) {
            out.println("infer  time    ms/op  " + b + "  " + h + "  +20%  1.200 [1.150, 1.250]  slower  FAIL");
            out.println("where: infer, 10 pairs of operator passes (95 % intervals for the table as a whole)");
            out.println("  a call in the passes: 0." + b + " ms -> 0." + h + " ms, change +0.0200 [+0.0150, +0.0250]");
            out.println("  (outside the operators)  0.0100  0.0300  +0.0200 [+0.0150, +0.0250]  100 %");
            out.println("inferbench: regression in 1 of the gate's 1 rows");
            return 1;
        }
        out.println("infer  time    ms/op  " + b + "  " + h + "  +0.0%  1.000 [0.980, 1.020]  same  pass");
        return 0;
    };

    /** The build of a scratch commit is a jar beside its files. */
    private final GoodBuild build = (checkout, offline, log) -> {
        builds.add(checkout);
        try {
            Files.createDirectories(checkout.resolve("target"));
            Files.writeString(checkout.resolve("target/benchmarks.jar"), "jar\n");
            Files.writeString(log, "");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return true;
    };

    /**
     * c0 (good) and c1..c9: the cost rises at {@code at}; {@code extra} puts a file into commit c-i ("undecided", or
     * "broken" holding an exit code). The ten commits are written by one {@code git fast-import}, as ten
     * {@code git commit}s would write them, and checked out.
     */
    private Path scratch(String name, int at, Map<Integer, String[]> extra) throws Exception {
        Path repo = Files.createDirectories(tmp.resolve(name));
        git(repo, "init", "-q", "-b", "master");
        StringBuilder stream = new StringBuilder();
        List<Planted> costs = new ArrayList<>();
        for (int i = 0; i <= N; i++) {
            int cost = i >= at ? 12 : 10;
            String[] file = extra.get(i);
            stream.append("commit refs/heads/master\nmark :").append(i + 1).append('\n')
                    .append("author t <t@t> ").append(1_700_000_000L + i).append(" +0000\n")
                    .append("committer t <t@t> ").append(1_700_000_000L + i).append(" +0000\n")
                    .append(data("c" + i + "\n"));
            if (i > 0) {
                stream.append("from :").append(i).append('\n');
            }
            stream.append("deleteall\n").append(inline(".gitignore", "target/\nresults/\n"))
                    .append(inline("cost", cost + "\n")).append(inline("n", i + "\n"));
            if (file != null) {
                stream.append(inline(file[0], file[1]));
            }
            costs.add(new Planted(cost, file != null && file[0].equals("undecided"),
                    file != null && file[0].equals("broken") ? Integer.valueOf(file[1]) : null));
        }
        Path marks = tmp.resolve(name + ".marks");
        Process p = new ProcessBuilder("git", "-C", repo.toString(), "fast-import", "--quiet",
                "--export-marks=" + marks).redirectErrorStream(true).start();
        p.getOutputStream().write(stream.toString().getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(said).isZero();
        git(repo, "reset", "-q", "--hard");
        for (String line : Files.readAllLines(marks)) {
            String[] mark = line.split(" ");
            planted.put(mark[1], costs.get(Integer.parseInt(mark[0].substring(1)) - 1));
        }
        assertThat(planted).hasSizeGreaterThanOrEqualTo(N + 1);
        return repo;
    }

    /** A fast-import data block: the exact byte count, then the bytes. */
    private static String data(String text) {
        return "data " + text.getBytes(StandardCharsets.UTF_8).length + "\n" + text + "\n";
    }

    private static String inline(String path, String content) {
        return "M 100644 inline " + path + "\n" + data(content);
    }

    private Ended bisect(Path repo, String... extraArgs) {
        List<String> args = new ArrayList<>(List.of("HEAD~" + N, "HEAD", "-p", "model=mlp-tiny", "--budget", "1m",
                "--out", tmp.resolve("out").toString()));
        args.addAll(List.of(extraArgs));
        return run(new BisectCommand(repo, () -> oracle, build), args);
    }

    private static Ended run(BisectCommand command, List<String> args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try {
            code = command.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
        } catch (dev.inferbench.BenchException e) {
            throw new AssertionError("bad input ends in a line and exit 2, not an exception", e);
        }
        return new Ended(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static Ended git(Path dir, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("git", "-C", dir.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        Ended e = new Ended(p.exitValue(), out, "");
        if (!args[0].equals("bisect")) {
            assertThat(e.code()).as(out).isZero();
        }
        return e;
    }

    private static String sha(Path repo, String rev) throws Exception {
        return git(repo, "rev-parse", rev).out().strip();
    }

    @Test
    void findsThePlantedCommitInAtMostLog2NPlusOneComparisonsAndLeavesTheCheckoutAsItWas() throws Exception {
        int bound = (int) Math.ceil(Math.log(N) / Math.log(2)) + 1;
        for (int at = 1; at <= N; at++) {
            Path repo = scratch("repo-" + at, at, Map.of());
            String status = git(repo, "status", "--porcelain").out();
            calls.clear();
            Ended e = bisect(repo);
            assertThat(e.code()).as(e.err()).isZero();
            String first = sha(repo, "HEAD~" + (N - at));
            assertThat(e.out()).as("planted at c" + at)
                    .contains("[bisect-perf] first bad commit: " + first.substring(0, 7) + " c" + at + " (")
                    .contains("1.200 [1.150, 1.250]  slower  FAIL")
                    .contains("\nwhere: infer, 10 pairs of operator passes (95 % intervals for the table as a whole)\n"
                            + "  a call in the passes: 0.10 ms -> 0.12 ms, change +0.0200 [+0.0150, +0.0250]\n"
                            + "  (outside the operators)  0.0100  0.0300  +0.0200 [+0.0150, +0.0250]  100 %\n"
                            + "[bisect-perf] its comparison against good: ")
                    .doesNotContain("inferbench: regression");
            assertThat(calls).as("planted at c" + at).hasSizeLessThanOrEqualTo(bound);
            // the first comparison at compare-commits' own minimum effect and precision; the later ones at half the
            // +20 % it measured, each stopped at half that (5 %) or three times the budget
            for (int i = 0; i < calls.size(); i++) {
                assertThat(calls.get(i)).endsWith("-p model=mlp-tiny --precision "
                        + (i == 0 ? "2% --budget 60s" : "5.0% --min-effect 10.0% --budget 180s")
                        + " --fail-on-regression --out " + tmp.resolve("out") + "/step-" + (i + 1));
            }
            assertThat(e.out()).contains("[bisect-perf] bad is +20.0% against good; each further step asks for a slowdown"
                    + " of at least 10.0% (half of it; --min-effect sets it)")
                    .contains("[bisect-perf] each further step: one comparison, until its interval is within +-5.0%"
                            + " (--precision, half the minimum effect) or 180s (three times --budget)");
            assertThat(tmp.resolve("out/step-1.log")).content().contains("slower  FAIL");
            assertThat(sha(repo, "HEAD")).isEqualTo(sha(repo, "master"));
            assertThat(git(repo, "status", "--porcelain").out()).isEqualTo(status);
            assertThat(git(repo, "worktree", "list").out().lines()).hasSize(1);
            assertThat(git(repo, "bisect", "log").code()).as("no bisect in the checkout").isNotZero();
            assertThat(builds).as("GOOD built once a bisect").hasSize(at);
        }
    }

    @Test
    void aLaterStepThatCannotTellIsSkippedAfterItsOneComparison() throws Exception {
        // git bisect's first midpoint of c1..c9 is c4: it cannot be judged, and its neighbours decide instead
        Path repo = scratch("repo", 6, Map.of(4, new String[]{"undecided", "x"}));
        Ended e = bisect(repo);
        assertThat(e.code()).as(e.err()).isZero();
        String c4 = sha(repo, "HEAD~5");
        assertThat(calls).filteredOn(l -> l.startsWith(c4)).singleElement().asString().contains("--budget 180s");
        assertThat(e.out()).contains(c4.substring(0, 7) + " c4: could not tell; skipped")
                .doesNotContain("once more")
                .contains("first bad commit: " + sha(repo, "HEAD~3").substring(0, 7) + " c6");
        assertThat(e.out()).as("c4 never judged").doesNotContain(c4.substring(0, 7) + " c4: good")
                .doesNotContain(c4.substring(0, 7) + " c4: bad");
    }

    @Test
    void aFirstComparisonThatCannotTellRunsOnceMoreAtTwiceTheBudget() throws Exception {
        Path repo = scratch("repo", 6, Map.of(N, new String[]{"undecided", "x"}));
        Ended e = bisect(repo);
        assertThat(e.code()).isEqualTo(3);
        String bad = sha(repo, "HEAD");
        assertThat(calls).hasSize(2)
                .satisfies(l -> assertThat(l.get(0)).startsWith(bad).contains("--precision 2% --budget 60s")
                        .endsWith("/step-1"))
                .satisfies(l -> assertThat(l.get(1)).startsWith(bad).contains("--precision 2% --budget 120s")
                        .endsWith("/step-1-again"));
        assertThat(e.out()).contains(bad.substring(0, 7) + " c9: could not tell; once more at twice the budget");
        assertThat(e.err().lines()).singleElement().asString().contains("could not tell whether bad")
                .contains("twice; run with a longer --budget");
    }

    @Test
    void withPrecisionGivenEveryStepKeepsItAndAStepThatCannotTellRunsOnceMore() throws Exception {
        Path repo = scratch("repo", 6, Map.of(4, new String[]{"undecided", "x"}));
        Ended e = bisect(repo, "--precision", "3%");
        assertThat(e.code()).as(e.err()).isZero();
        assertThat(calls).allSatisfy(c -> assertThat(c).contains("--precision 3%").doesNotContain("--precision 2%"));
        String c4 = sha(repo, "HEAD~5");
        assertThat(calls).filteredOn(l -> l.startsWith(c4)).hasSize(2)
                .satisfies(l -> assertThat(l.get(0)).contains("--budget 60s"))
                .satisfies(l -> assertThat(l.get(1)).contains("--budget 120s"));
        assertThat(e.out()).contains(c4.substring(0, 7) + " c4: could not tell; once more at twice the budget")
                .contains(c4.substring(0, 7) + " c4: could not tell twice; skipped")
                .doesNotContain("each further step: one comparison");
    }

    @Test
    void aComparisonThatFailsEndsTheBisectInOneLineWithItsCode() throws Exception {
        Path repo = scratch("repo", 6, Map.of(4, new String[]{"broken", "4"}));
        Ended e = bisect(repo);
        assertThat(e.code()).isEqualTo(4);
        assertThat(e.err().lines()).containsExactly("bisect-perf: the comparison of " + sha(repo, "HEAD~5").substring(0, 7)
                + " ended with exit 4: compare-commits: planted failure");
        assertThat(git(repo, "worktree", "list").out().lines()).as("worktrees gone on a failure too").hasSize(1);
        Path bad = scratch("bad", 6, Map.of(N, new String[]{"broken", "2"}));
        Ended input = bisect(bad);
        assertThat(input.code()).isEqualTo(2);
        assertThat(input.err().lines()).singleElement().asString().contains("ended with exit 2");
    }

    @Test
    void aMinimumEffectGivenIsEveryStepsOwn() throws Exception {
        Path repo = scratch("repo", 3, Map.of());
        Ended e = bisect(repo, "--min-effect", "5%");
        assertThat(e.code()).as(e.err()).isZero();
        assertThat(calls).hasSizeGreaterThan(1).allSatisfy(c -> assertThat(c).containsPattern(" --min-effect 5% --precision ")
                .doesNotContain("10.0%"));
        assertThat(calls.get(0)).contains(" --min-effect 5% --precision 2% --budget 60s");
        assertThat(calls.subList(1, calls.size())).allSatisfy(c -> assertThat(c)
                .contains(" --min-effect 5% --precision 2.5% --budget 180s"));
        assertThat(e.out()).doesNotContain("each further step asks");
    }

    @Test
    void aRangeWhoseEndIsNotSlowerIsNotBisected() throws Exception {
        Path repo = scratch("repo", N + 1, Map.of());
        Ended e = bisect(repo);
        assertThat(e.code()).isEqualTo(3);
        assertThat(e.err().lines()).singleElement().asString().contains("is not slower than good").contains("nothing to bisect");
        assertThat(calls).hasSize(1);
        Ended backwards = run(new BisectCommand(repo, () -> oracle, build), List.of("HEAD", "HEAD~2"));
        assertThat(backwards.code()).isEqualTo(2);
        assertThat(backwards.err().lines()).singleElement().asString().contains("is not an ancestor of bad");
    }

    @Test
    void badArgumentsAreOneLineAndExit2() throws Exception {
        Path repo = scratch("repo", 6, Map.of());
        BisectCommand command = new BisectCommand(repo, () -> oracle, build);
        assertThat(run(command, List.of("HEAD")).err()).startsWith("bisect-perf: expected: bisect GOOD BAD");
        assertThat(run(command, List.of("HEAD~1", "HEAD", "--budget", "soon")).err().strip())
                .isEqualTo("bisect-perf: --budget 'soon' is not a duration; expected e.g. 90s, 10m, 1h");
        assertThat(run(command, List.of("HEAD~1", "HEAD", "--budget")).err().strip())
                .isEqualTo("bisect-perf: --budget needs a value; expected a duration, e.g. 10m");
        assertThat(run(command, List.of("no-such", "HEAD")).err().strip())
                .isEqualTo("bisect-perf: unknown commit 'no-such'; expected a branch, tag or sha");
        Ended outside = run(new BisectCommand(Files.createDirectories(tmp.resolve("plain")), () -> oracle, build),
                List.of("HEAD~1", "HEAD"));
        assertThat(outside.code()).isEqualTo(2);
        assertThat(outside.err().strip()).isEqualTo("bisect-perf: not inside a git checkout");
        assertThat(calls).isEmpty();
        assertThat(builds).isEmpty();
    }
}

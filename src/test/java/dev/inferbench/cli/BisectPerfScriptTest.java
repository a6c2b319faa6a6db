package dev.inferbench.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * tools/bisect-perf.sh on a scratch repository of 10 commits whose cost file plants a regression, with a stand-in for
 * compare-commits that reads the planted cost (src/test/resources/bisect-perf): it finds the planted commit in at most
 * ceil(log2 n) + 1 comparisons (one a step, each stopped at half its minimum effect), retries a first comparison that
 * could not tell at twice the budget, skips a later step's commit that could not tell,
 * ends the bisect in one line on a failure, and leaves the checkout it was started from as it was.
 */
class BisectPerfScriptTest {
    private static final Path SCRIPT = Path.of("tools/bisect-perf.sh").toAbsolutePath();
    private static final Path FAKES = Path.of("src/test/resources/bisect-perf").toAbsolutePath();
    /** Commits after the good one. */
    private static final int N = 9;

    @TempDir
    Path tmp;

    record Ended(int code, String out, String err) {
    }

    /**
     * c0 (good) and c1..c9: the cost rises at {@code planted}; {@code extra} puts a file into commit c-i
     * ("undecided", or "broken" holding an exit code).
     */
    private Path scratch(int planted, Map<Integer, String[]> extra) throws Exception {
        Path repo = Files.createDirectories(tmp.resolve("repo"));
        exec(repo, List.of("git", "init", "-q"));
        Files.createDirectories(repo.resolve("tools"));
        Files.copy(SCRIPT, repo.resolve("tools/bisect-perf.sh"));
        Files.writeString(repo.resolve(".gitignore"), "target/\nresults/\n");
        for (int i = 0; i <= N; i++) {
            Files.writeString(repo.resolve("cost"), i >= planted ? "12\n" : "10\n");
            Files.writeString(repo.resolve("n"), i + "\n");
            for (String f : List.of("undecided", "broken")) {
                Files.deleteIfExists(repo.resolve(f));
            }
            if (extra.containsKey(i)) {
                Files.writeString(repo.resolve(extra.get(i)[0]), extra.get(i)[1]);
            }
            exec(repo, List.of("git", "add", "-A"));
            exec(repo, List.of("git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "c" + i));
        }
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Files.copy(FAKES.resolve("mvn"), bin.resolve("mvn"));
        assertThat(bin.resolve("mvn").toFile().setExecutable(true)).isTrue();
        return repo;
    }

    private Ended bisect(Path repo, String... extraArgs) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("bash", "tools/bisect-perf.sh", "HEAD~" + N, "HEAD",
                "-p", "model=mlp-tiny", "--budget", "1m", "--out", tmp.resolve("out").toString()));
        cmd.addAll(List.of(extraArgs));
        return exec(repo, cmd);
    }

    private Ended exec(Path dir, List<String> cmd) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
        pb.environment().put("PATH", tmp.resolve("bin") + ":" + System.getenv("PATH"));
        pb.environment().put("FAKE_LOG", tmp.resolve("calls").toString());
        pb.environment().put("INFERBENCH_COMPARE_COMMITS", FAKES.resolve("compare-commits").toString());
        pb.redirectOutput(tmp.resolve("stdout").toFile()).redirectError(tmp.resolve("stderr").toFile());
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("ended within a minute").isTrue();
        Ended e = new Ended(p.exitValue(), Files.readString(tmp.resolve("stdout")), Files.readString(tmp.resolve("stderr")));
        if (cmd.get(0).equals("git") && !cmd.contains("bisect")) {
            assertThat(e.code()).as(e.err()).isZero();
        }
        return e;
    }

    private List<String> calls() throws IOException {
        Path log = tmp.resolve("calls");
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    private String sha(Path repo, String rev) throws Exception {
        return exec(repo, List.of("git", "rev-parse", rev)).out().strip();
    }

    @Test
    void findsThePlantedCommitInAtMostLog2NPlusOneComparisonsAndLeavesTheCheckoutAsItWas() throws Exception {
        int bound = (int) Math.ceil(Math.log(N) / Math.log(2)) + 1;
        for (int planted = 1; planted <= N; planted++) {
            Path repo = scratch(planted, Map.of());
            String status = exec(repo, List.of("git", "status", "--porcelain")).out();
            Ended e = bisect(repo);
            assertThat(e.code()).as(e.err()).isZero();
            String first = sha(repo, "HEAD~" + (N - planted));
            assertThat(e.out()).as("planted at c" + planted)
                    .contains("[bisect-perf] first bad commit: " + first.substring(0, 7) + " c" + planted + " (")
                    .contains("1.200 [1.150, 1.250]  slower  FAIL")
                    .contains("\nwhere: infer, 10 pairs of operator passes (95 % intervals for the table as a whole)\n"
                            + "  a call in the passes: 0.10 ms -> 0.12 ms, change +0.0200 [+0.0150, +0.0250]\n"
                            + "  (outside the operators)  0.0100  0.0300  +0.0200 [+0.0150, +0.0250]  100 %\n"
                            + "[bisect-perf] its comparison against good: ")
                    .doesNotContain("inferbench: regression");
            List<String> calls = calls();
            assertThat(calls).as("planted at c" + planted).hasSizeLessThanOrEqualTo(bound);
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
            assertThat(sha(repo, "HEAD")).isEqualTo(sha(repo, "master"));
            assertThat(exec(repo, List.of("git", "status", "--porcelain")).out()).isEqualTo(status);
            assertThat(exec(repo, List.of("git", "worktree", "list")).out().lines()).hasSize(1);
            assertThat(exec(repo, List.of("git", "bisect", "log")).code()).as("no bisect in the checkout").isNotZero();
            clean();
        }
    }

    private void clean() throws IOException {
        try (var files = Files.walk(tmp)) {
            files.sorted(java.util.Comparator.reverseOrder()).filter(p -> !p.equals(tmp)).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    void aLaterStepThatCannotTellIsSkippedAfterItsOneComparison() throws Exception {
        // git bisect's first midpoint of c1..c9 is c4: it cannot be judged, and its neighbours decide instead
        Path repo = scratch(6, Map.of(4, new String[]{"undecided", "x"}));
        Ended e = bisect(repo);
        assertThat(e.code()).as(e.err()).isZero();
        String c4 = sha(repo, "HEAD~5");
        assertThat(calls()).filteredOn(l -> l.startsWith(c4)).singleElement().asString().contains("--budget 180s");
        assertThat(e.out()).contains(c4.substring(0, 7) + " c4: could not tell; skipped")
                .doesNotContain("once more")
                .contains("first bad commit: " + sha(repo, "HEAD~3").substring(0, 7) + " c6");
        assertThat(e.out()).as("c4 never judged").doesNotContain(c4.substring(0, 7) + " c4: good")
                .doesNotContain(c4.substring(0, 7) + " c4: bad");
    }

    @Test
    void aFirstComparisonThatCannotTellRunsOnceMoreAtTwiceTheBudget() throws Exception {
        Path repo = scratch(6, Map.of(N, new String[]{"undecided", "x"}));
        Ended e = bisect(repo);
        assertThat(e.code()).isEqualTo(3);
        String bad = sha(repo, "HEAD");
        assertThat(calls()).hasSize(2)
                .satisfies(l -> assertThat(l.get(0)).startsWith(bad).contains("--precision 2% --budget 60s"))
                .satisfies(l -> assertThat(l.get(1)).startsWith(bad).contains("--precision 2% --budget 120s"));
        assertThat(e.out()).contains(bad.substring(0, 7) + " c9: could not tell; once more at twice the budget");
        assertThat(e.err().lines()).singleElement().asString().contains("could not tell whether bad")
                .contains("twice; run with a longer --budget");
    }

    @Test
    void withPrecisionGivenEveryStepKeepsItAndAStepThatCannotTellRunsOnceMore() throws Exception {
        Path repo = scratch(6, Map.of(4, new String[]{"undecided", "x"}));
        Ended e = bisect(repo, "--precision", "3%");
        assertThat(e.code()).as(e.err()).isZero();
        assertThat(calls()).allSatisfy(c -> assertThat(c).contains("--precision 3%").doesNotContain("--precision 2%"));
        String c4 = sha(repo, "HEAD~5");
        assertThat(calls()).filteredOn(l -> l.startsWith(c4)).hasSize(2)
                .satisfies(l -> assertThat(l.get(0)).contains("--budget 60s"))
                .satisfies(l -> assertThat(l.get(1)).contains("--budget 120s"));
        assertThat(e.out()).contains(c4.substring(0, 7) + " c4: could not tell; once more at twice the budget")
                .contains(c4.substring(0, 7) + " c4: could not tell twice; skipped")
                .doesNotContain("each further step: one comparison");
    }

    @Test
    void aComparisonThatFailsEndsTheBisectInOneLineWithItsCode() throws Exception {
        Path repo = scratch(6, Map.of(4, new String[]{"broken", "4"}));
        Ended e = bisect(repo);
        assertThat(e.code()).isEqualTo(4);
        assertThat(e.err().lines()).containsExactly("bisect-perf: the comparison of " + sha(repo, "HEAD~5").substring(0, 7)
                + " ended with exit 4: compare-commits: planted failure");
        clean();
        Path bad = scratch(6, Map.of(N, new String[]{"broken", "2"}));
        Ended input = bisect(bad);
        assertThat(input.code()).isEqualTo(2);
        assertThat(input.err().lines()).singleElement().asString().contains("ended with exit 2");
    }

    @Test
    void aMinimumEffectGivenIsEveryStepsOwn() throws Exception {
        Path repo = scratch(3, Map.of());
        Ended e = bisect(repo, "--min-effect", "5%");
        assertThat(e.code()).as(e.err()).isZero();
        List<String> calls = calls();
        assertThat(calls).hasSizeGreaterThan(1).allSatisfy(c -> assertThat(c).containsPattern(" --min-effect 5% --precision ")
                .doesNotContain("10.0%"));
        assertThat(calls.get(0)).contains(" --min-effect 5% --precision 2% --budget 60s");
        assertThat(calls.subList(1, calls.size())).allSatisfy(c -> assertThat(c)
                .contains(" --min-effect 5% --precision 2.5% --budget 180s"));
        assertThat(e.out()).doesNotContain("each further step asks");
    }

    /** With the real compare-commits as the oracle, a checkout without its jar is refused before anything is built. */
    @Test
    void aCheckoutWithoutItsJarIsRefusedBeforeAnyBuild() throws Exception {
        Path repo = scratch(6, Map.of());
        Files.copy(FAKES.resolve("compare-commits"), repo.resolve("tools/compare-commits.sh"));
        assertThat(repo.resolve("tools/compare-commits.sh").toFile().setExecutable(true)).isTrue();
        List<String> cmd = List.of("env", "-u", "INFERBENCH_COMPARE_COMMITS", "bash", "tools/bisect-perf.sh", "HEAD~" + N,
                "HEAD", "-p", "model=mlp-tiny", "--budget", "1m", "--out", tmp.resolve("out").toString());
        Ended e = exec(repo, cmd);

        assertThat(e.code()).isEqualTo(2);
        assertThat(e.err().lines()).containsExactly("bisect-perf: " + repo.toRealPath() + "/target/benchmarks.jar is"
                + " missing: each step's compare runs this checkout's; build it first: mvn -q package -DskipTests");
        assertThat(calls()).isEmpty();
        assertThat(tmp.resolve("out/build-good.log")).doesNotExist();
    }

    @Test
    void aRangeWhoseEndIsNotSlowerIsNotBisected() throws Exception {
        Path repo = scratch(N + 1, Map.of());
        Ended e = bisect(repo);
        assertThat(e.code()).isEqualTo(3);
        assertThat(e.err().lines()).singleElement().asString().contains("is not slower than good").contains("nothing to bisect");
        assertThat(calls()).hasSize(1);
        Ended backwards = exec(repo, List.of("bash", "tools/bisect-perf.sh", "HEAD", "HEAD~2"));
        assertThat(backwards.code()).isEqualTo(2);
        assertThat(backwards.err().lines()).singleElement().asString().contains("is not an ancestor of bad");
    }
}

package dev.inferbench;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CI workflows say what the docs say they do: the test workflow runs the README's test command through .ci/run
 * on every push and pull request, the sharded run builds its jar once and hands it on, and the gate is opt-in and
 * cannot be turned against its runner: the base branch judges, no build shares a cache with later jobs, and forks'
 * pull requests never reach the self-hosted runner. The project has no YAML parser; the checks read the files as
 * text, and actionlint checks their syntax where it is installed.
 */
class WorkflowsTest {
    private static final Path WORKFLOWS = Path.of(".github/workflows");

    private static String read(String file) throws IOException {
        return Files.readString(WORKFLOWS.resolve(file));
    }

    private static long count(String text, String regex) {
        return Pattern.compile(regex, Pattern.MULTILINE).matcher(text).results().count();
    }

    /** The gate's steps, each as its text: the file has one job, whose steps are the items six spaces in. */
    private static List<String> gateSteps() throws IOException {
        String gate = read("benchmark-gate.yml");
        return Arrays.stream(gate.substring(gate.indexOf("\n    steps:\n")).split("(?m)^      - ")).skip(1).toList();
    }

    /** A step's value for key, in block (`key: v`) or flow (`{ key: v, ... }`) style, unquoted; null when absent. */
    private static String field(String step, String key) {
        String k = Pattern.quote(key);
        Matcher m = Pattern.compile("(?m)^\\s*" + k + ": (.+)$").matcher(step);
        if (!m.find()) {
            m = Pattern.compile("[{,]\\s*" + k + ": (\"[^\"]*\"|[^,}\\n]+)").matcher(step);
            if (!m.find()) {
                return null;
            }
        }
        return m.group(1).strip().replaceAll("^\"|\"$", "");
    }

    private static List<String> checkouts(List<String> steps) {
        return steps.stream().filter(s -> s.contains("uses: actions/checkout@")).toList();
    }

    @Test
    void theTestWorkflowRunsTheReadmesTestCommandOnPushAndPullRequest() throws IOException {
        String tests = read("tests.yml");
        assertThat(tests).containsPattern("(?m)^on:\\n  push:\\n  pull_request:\\n");
        assertThat(count(tests, "^\\s+run: \\.ci/run$")).isEqualTo(1);
        Matcher readme = Pattern.compile("(?m)^    (mvn -q verify)$").matcher(Files.readString(Path.of("README.md")));
        assertThat(readme.find()).as("the README's test command").isTrue();
        List<String> ci = Files.readAllLines(Path.of(".ci/run"));
        // .ci/run ends with that command, in batch mode for CI's log
        assertThat(ci.get(ci.size() - 1)).isEqualTo(readme.group(1).replace("mvn -q", "mvn -q -B"));
    }

    @Test
    void theShardedRunBuildsItsJarOnceAndHandsItOn() throws IOException {
        String sharded = read("benchmarks-sharded.yml");
        assertThat(count(sharded, "\\bmvn ")).as("builds").isEqualTo(1);
        assertThat(count(sharded, "name: benchmarks-jar")).as("one upload, a download in the shard and the merge")
                .isEqualTo(3);
        assertThat(sharded).containsPattern("(?m)^  shard:\\n    needs: build$");
    }

    @Test
    void theGateIsOptInByLabel() throws IOException {
        String gate = read("benchmark-gate.yml");
        assertThat(gate).contains("if: contains(github.event.pull_request.labels.*.name, 'benchmark')")
                .contains("tools/compare-commits.sh").contains("--fail-on-regression");
        assertThat(Files.readString(Path.of("docs/statistics.md"))).contains("(../.github/workflows/benchmark-gate.yml)");
    }

    /**
     * The verdict is the base branch's: its checkout is built, and from it runs its own compare-commits.sh with "."
     * (that checkout as built, whose target/benchmarks.jar the script runs as compare) against the pull request's
     * checkout, a folder holding a built jar. No step runs the pull request's script or compare.
     */
    @Test
    void theGateIsJudgedByTheBaseBranchsScriptAndJar() throws IOException {
        List<String> steps = gateSteps();
        List<String> checkouts = checkouts(steps);
        String base = checkouts.stream().filter(s -> "${{ github.base_ref }}".equals(field(s, "ref")))
                .map(s -> field(s, "path")).findFirst().orElse(null);
        assertThat(base).as("a checkout of the base branch into a folder of its own").isNotBlank();
        List<String> others = checkouts.stream().filter(s -> field(s, "ref") == null).map(s -> field(s, "path"))
                .toList();
        assertThat(others).as("the pull request's checkout (the event's merge commit), in another folder")
                .singleElement().isNotNull().isNotEqualTo(base);
        String pr = others.get(0);

        List<String> compares = steps.stream().filter(s -> s.contains("tools/compare-commits.sh")).toList();
        assertThat(compares).hasSize(1);
        String compare = compares.get(0);
        assertThat(field(compare, "working-directory")).as("the script and compare jar are the base checkout's")
                .isEqualTo(base);
        assertThat(compare).containsPattern("(?m)^\\s+tools/compare-commits\\.sh \\. \"\\$GITHUB_WORKSPACE/"
                + Pattern.quote(pr) + "\" ");
        List<String> before = steps.subList(0, steps.indexOf(compare));
        for (String folder : List.of(base, pr)) {
            assertThat(before).as("a build in " + folder + " before the comparison")
                    .anySatisfy(s -> assertThat(s).contains("mvn ").contains(" package")
                            .satisfies(t -> assertThat(field(t, "working-directory")).isEqualTo(folder)));
        }
    }

    /**
     * A persistent runner keeps ~/.m2 and setup-java's cache restores what an earlier job saved: each build has a
     * Maven repository of its own in the job's temporary folder, and DJL's natives are extracted there too.
     */
    @Test
    void theGatesBuildsShareNoCacheWithLaterJobs() throws IOException {
        String gate = read("benchmark-gate.yml");
        assertThat(gate).doesNotContain("cache: maven").doesNotContain("actions/cache");
        List<String> mvn = Pattern.compile("(?m)^\\s*(?:run: )?mvn .*$").matcher(gate).results().map(r -> r.group())
                .toList();
        assertThat(mvn).hasSize(2).allSatisfy(l -> assertThat(l).contains(" -Dmaven.repo.local=\"$RUNNER_TEMP/"));
        assertThat(Pattern.compile("repo\\.local=\"(\\$RUNNER_TEMP/[^\"]+)\"").matcher(gate).results()
                .map(r -> r.group(1)).distinct().count()).as("the pull request's repository is not the base build's")
                .isEqualTo(2);
        String compare = gateSteps().stream().filter(s -> s.contains("tools/compare-commits.sh")).findFirst()
                .orElseThrow();
        assertThat(field(compare, "XDG_CACHE_HOME")).startsWith("${{ runner.temp }}/");
    }

    /**
     * The builds are no sandbox, so the self-hosted runner takes only pull requests from branches of this repository;
     * the trigger is pull_request, whose token is read-only here, and no checkout leaves it in .git/config.
     */
    @Test
    void forksPullRequestsNeverReachTheSelfHostedRunner() throws IOException {
        String gate = read("benchmark-gate.yml");
        assertThat(gate).containsPattern("(?m)^on:\\n  pull_request:\\n")
                .doesNotContainPattern("(?m)^  pull_request_target:")
                .containsPattern("(?m)^permissions:\\n  contents: read\\n");
        List<String> ifs = Pattern.compile("(?m)^    if: (.*)$").matcher(gate).results().map(r -> r.group(1)).toList();
        assertThat(ifs).singleElement().asString()
                .contains("&& github.event.pull_request.head.repo.full_name == github.repository").doesNotContain("||");
        assertThat(gate).contains("runs-on: [self-hosted, benchmark]");
        assertThat(checkouts(gateSteps())).hasSize(2)
                .allSatisfy(s -> assertThat(field(s, "persist-credentials")).isEqualTo("false"));
    }

    @Test
    void noWorkflowIndentsWithTabs() throws IOException {
        try (var files = Files.list(WORKFLOWS)) {
            for (Path f : files.toList()) {
                assertThat(Files.readString(f)).as(f.toString()).doesNotContain("\t");
            }
        }
    }
}

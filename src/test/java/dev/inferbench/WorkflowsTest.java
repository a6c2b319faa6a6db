package dev.inferbench;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CI workflows say what the docs say they do: the test workflow runs the README's test command through .ci/run
 * on every push and pull request, the sharded run builds its jar once and hands it on, and the gate is opt-in. The
 * project has no YAML parser; the checks read the files as text, and actionlint checks their syntax where it is
 * installed.
 */
class WorkflowsTest {
    private static final Path WORKFLOWS = Path.of(".github/workflows");

    private static String read(String file) throws IOException {
        return Files.readString(WORKFLOWS.resolve(file));
    }

    private static long count(String text, String regex) {
        return Pattern.compile(regex, Pattern.MULTILINE).matcher(text).results().count();
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

    @Test
    void noWorkflowIndentsWithTabs() throws IOException {
        try (var files = Files.list(WORKFLOWS)) {
            for (Path f : files.toList()) {
                assertThat(Files.readString(f)).as(f.toString()).doesNotContain("\t");
            }
        }
    }
}

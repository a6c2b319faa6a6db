package dev.inferbench.commits;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * power-ledger --two-builds: the commit is built twice (here by a fake builder), the two builds are compared with the
 * sides swapping every other comparison, the ledger's lines say "two-builds", and the builds go at the end.
 */
class PowerLedgerTwoBuildsTest {
    @TempDir
    Path tmp;

    private static String git(Path dir, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("git", "-C", dir.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(30, TimeUnit.SECONDS);
        return out.strip();
    }

    @Test
    void comparesTheTwoBuildsSwappingSides() throws Exception {
        Path repo = Files.createDirectories(tmp.resolve("repo"));
        git(repo, "init", "-q");
        Files.writeString(repo.resolve("f.txt"), "x\n");
        git(repo, "add", "-A");
        git(repo, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "c");
        String sha = git(repo, "rev-parse", "HEAD");
        Files.createDirectories(repo.resolve("target"));
        Files.writeString(repo.resolve("target/benchmarks.jar"), "");
        Path trees = tmp.resolve("trees");
        Path a = Files.createDirectories(trees.resolve("a"));
        Path b = Files.createDirectories(trees.resolve("b"));
        List<String> built = new ArrayList<>();
        TwinBuild.Builder builder = (commit, offline, logs) -> {
            built.add(commit + " offline=" + offline);
            return new TwinBuild(new GitCall(repo), trees, List.of(a, b));
        };
        List<List<String>> calls = new ArrayList<>();
        CommitComparison fake = (args, out, err) -> {
            calls.add(args);
            return calls.size() == 2 ? 1 : 0;
        };
        Path ledger = tmp.resolve("ledger.tsv");
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        new PowerLedger(repo, fake, new PrintStream(text, true, StandardCharsets.UTF_8), builder).run(
                new PowerLedger.Request(PowerLedger.Cell.MLP_TINY, 0, 3, "1m", false, false, ledger, false, null, "HEAD",
                        true));
        assertThat(built).containsExactly(sha + " offline=true");
        assertThat(calls).extracting(c -> c.subList(0, 2)).containsExactly(List.of(a.toString(), b.toString()),
                List.of(b.toString(), a.toString()), List.of(a.toString(), b.toString()));
        assertThat(trees).doesNotExist(); // the builds go with the proof
        List<String> lines = Files.readAllLines(ledger);
        assertThat(lines).hasSize(4);
        assertThat(lines.get(1)).contains("\t" + sha.substring(0, 12) + "\tmlp-tiny\t0\t1m\t").endsWith("\tinterleaved two-builds");
        assertThat(text.toString(StandardCharsets.UTF_8)).contains("mlp-tiny, interleaved two-builds, A/A, budget 1m: 1 of 3"
                + " failed the gate");
    }

    @Test
    void eachRunsTheComparisonUnderTheWrapper() throws Exception {
        WrappedComparison c = new WrappedComparison(List.of("echo", "locked:"), "/jdk/bin/java", Path.of("/x/b.jar"));
        assertThat(c.command(List.of(".", "."))).containsExactly("echo", "locked:", "/jdk/bin/java", "-jar",
                "/x/b.jar", "compare-commits", ".", ".");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = c.run(List.of(".", "--budget", "1m"), new PrintStream(out, true, StandardCharsets.UTF_8), null);
        assertThat(code).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .isEqualTo("locked: /jdk/bin/java -jar /x/b.jar compare-commits . --budget 1m\n");
    }
}

package dev.inferbench.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * tools/power-ledger.sh's summary: the share of comparisons that failed the gate per cell and planted slowdown, with
 * its exact 95 % interval, comparisons that ended in no verdict counted apart; and its refusals of bad arguments.
 */
class PowerLedgerScriptTest {
    private static final Path SCRIPT = Path.of("tools/power-ledger.sh").toAbsolutePath();
    private static final String HEADER = "when\tcommit\tcell\tslowdown_pct\tbudget\tpairs\tratio\tlower\tupper\tverdict"
            + "\texit\tdisturbed_left_out\tmachine\tmode";

    @TempDir
    Path tmp;

    private record Ended(int code, String out) {
    }

    private Ended run(String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("bash", SCRIPT.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Ended(p.exitValue(), new String(p.getInputStream().readAllBytes()));
    }

    private static String line(String cell, int pct, String exit, String verdict) {
        return line(cell, pct, exit, verdict, "interleaved");
    }

    private static String line(String cell, int pct, String exit, String verdict, String mode) {
        return String.join("\t", "2026-11-27T16:00Z", "abc", cell, Integer.toString(pct), "10m", "20", "1.0100",
                "0.9900", "1.0300", verdict, exit, "0", "2 cores", mode);
    }

    @Test
    void countsTheGateFailuresWithTheirExactInterval() throws Exception {
        Path ledger = tmp.resolve("ledger.tsv");
        StringBuilder text = new StringBuilder(HEADER).append('\n');
        for (int i = 0; i < 8; i++) {
            text.append(line("resnet50", 0, i == 0 ? "3" : "0", "same")).append('\n'); // 7 pass, 1 could not tell
        }
        for (int i = 0; i < 8; i++) {
            text.append(line("resnet50", 3, i < 7 ? "1" : "3", "slower")).append('\n');
        }
        text.append(line("resnet50", 3, "4", "n/a")).append('\n'); // a failure of the tool: not a verdict
        text.append(line("resnet50", 3, "1", "slower", "turns")).append('\n'); // counted apart, by its mode
        Files.writeString(ledger, text);
        Ended e = run("--summary", "--ledger", ledger.toString());
        assertThat(e.code()).isZero();
        // 0 of 8: the exact upper bound is 1 - 0.025^(1/8) = 36.9 %; 7 of 8: 47.3-99.7 %
        assertThat(e.out()).contains("resnet50, interleaved, A/A, budget 10m: 0 of 8 failed the gate (0 %; exact 95 % interval"
                + " 0.0-36.9 %); 1 could not tell; 0 ended otherwise");
        assertThat(e.out()).contains("resnet50, interleaved, +3 % planted, budget 10m: 7 of 8 failed the gate (88 %; exact 95 %"
                + " interval 47.3-99.7 %); 1 could not tell; 1 ended otherwise");
        assertThat(e.out()).contains("resnet50, turns, +3 % planted, budget 10m: 1 of 1 failed the gate");
    }

    @Test
    void sinceCountsOnlyTheComparisonsMadeAtThatCommitOrAfter() throws Exception {
        // a repository of three commits of its own, with this script in it: the script asks git from its own folder
        Path repo = tmp.resolve("repo");
        Files.createDirectories(repo.resolve("tools"));
        Files.copy(SCRIPT, repo.resolve("tools/power-ledger.sh"));
        git(repo, "init", "-q");
        String[] commits = new String[3];
        for (int i = 0; i < 3; i++) {
            Files.writeString(repo.resolve("f.txt"), "version " + i + "\n");
            git(repo, "add", "-A");
            git(repo, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "c" + i);
            commits[i] = git(repo, "rev-parse", "--short=12", "HEAD");
        }
        StringBuilder text = new StringBuilder(HEADER).append('\n');
        text.append(line("resnet50", 3, "3", "inconclusive").replace("\tabc\t", "\t" + commits[0] + "\t")).append('\n');
        text.append(line("resnet50", 3, "1", "slower").replace("\tabc\t", "\t" + commits[1] + "\t")).append('\n');
        text.append(line("resnet50", 3, "1", "slower").replace("\tabc\t", "\t" + commits[2] + "\t")).append('\n');
        Path ledger = tmp.resolve("ledger.tsv");
        Files.writeString(ledger, text);
        List<String> cmd = List.of("bash", repo.resolve("tools/power-ledger.sh").toString(), "--summary", "--since",
                commits[1], "--ledger", ledger.toString());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("counting only comparisons made at " + commits[1] + " or after it")
                .contains("resnet50, interleaved, +3 % planted, budget 10m: 2 of 2 failed the gate");
        Ended all = run("--summary", "--ledger", ledger.toString());
        assertThat(all.out()).contains("+3 % planted, budget 10m: 2 of 3 failed the gate");
        Ended bad = run("--summary", "--since", "no-such-commit", "--ledger", ledger.toString());
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.out().strip()).isEqualTo("power-ledger: --since 'no-such-commit' is not a commit of this repository");
    }

    private static String git(Path repo, String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("git", "-C", repo.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        String out = new String(p.getInputStream().readAllBytes()).strip();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }

    @Test
    void refusesBadArgumentsInOneLine() throws Exception {
        Ended cell = run("--cell", "bert", "--slowdown", "3");
        assertThat(cell.code()).isEqualTo(2);
        assertThat(cell.out().strip()).isEqualTo("power-ledger: --cell 'bert' is not resnet50 or mlp-tiny");
        Ended pct = run("--cell", "mlp-tiny", "--slowdown", "3.5");
        assertThat(pct.code()).isEqualTo(2);
        assertThat(pct.out()).contains("is not a whole percent");
        Ended none = run("--summary", "--ledger", tmp.resolve("absent.tsv").toString());
        assertThat(none.code()).isEqualTo(2);
        assertThat(none.out()).contains("no ledger at");
    }
}

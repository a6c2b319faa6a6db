package dev.inferbench.cli;

import dev.inferbench.commits.CommitComparison;
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
 * {@code power-ledger}: its summary (the share of comparisons that failed the gate per cell and planted slowdown,
 * with its exact 95 % interval, comparisons that ended in no verdict counted apart), the same figures the earlier
 * script's Python printed for the project's ledger; a proof's comparisons, each appended to the ledger as it ends;
 * and its refusals of bad arguments.
 */
class PowerLedgerCommandTest {
    private static final String HEADER = "when\tcommit\tcell\tslowdown_pct\tbudget\tpairs\tratio\tlower\tupper\tverdict"
            + "\texit\tdisturbed_left_out\tmachine\tmode";
    private static final Path GOLDEN = Path.of("src/test/resources/power-ledger");

    @TempDir
    Path tmp;

    private record Ended(int code, String out, String err) {
    }

    private final List<List<String>> calls = new ArrayList<>();

    private Ended run(Path checkout, CommitComparison comparison, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try {
            code = new PowerLedgerCommand(checkout, () -> comparison).run(List.of(args),
                    new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        } catch (dev.inferbench.BenchException e) {
            throw new AssertionError("bad input ends in a line and exit 2, not an exception", e);
        }
        return new Ended(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private Ended run(String... args) {
        return run(tmp, (a, o, e) -> {
            throw new AssertionError("no comparison expected");
        }, args);
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
        text.append(line("resnet50", 5, "4", "n/a")).append('\n'); // no verdict at all
        Files.writeString(ledger, text);
        Ended e = run("--summary", "--ledger", ledger.toString());
        assertThat(e.code()).as(e.err()).isZero();
        // 0 of 8: the exact upper bound is 1 - 0.025^(1/8) = 36.9 %; 7 of 8: 47.3-99.7 %
        assertThat(e.out()).contains("resnet50, interleaved, A/A, budget 10m: 0 of 8 failed the gate (0 %; exact 95 % interval"
                + " 0.0-36.9 %); 1 could not tell; 0 ended otherwise; pairs: median 20\n");
        assertThat(e.out()).contains("resnet50, interleaved, +3 % planted, budget 10m: 7 of 8 failed the gate (88 %; exact 95 %"
                + " interval 47.3-99.7 %); 1 could not tell; 1 ended otherwise");
        assertThat(e.out()).contains("resnet50, turns, +3 % planted, budget 10m: 1 of 1 failed the gate");
        assertThat(e.out()).contains("resnet50, interleaved, +5 % planted, budget 10m: no comparison ended in a verdict"
                + " (1 ended otherwise)");
    }

    /** The project's ledger as it stood when the summary moved into the jar, and what the script's Python printed. */
    @Test
    void printsWhatTheEarlierScriptPrintedForTheProjectsLedger() throws Exception {
        Ended e = run("--summary", "--ledger", GOLDEN.resolve("ledger.tsv").toAbsolutePath().toString());
        assertThat(e.code()).as(e.err()).isZero();
        assertThat(e.out()).isEqualTo(Files.readString(GOLDEN.resolve("summary.txt")));
    }

    @Test
    void sinceCountsOnlyTheComparisonsMadeAtThatCommitOrAfter() throws Exception {
        Path repo = tmp.resolve("repo");
        Files.createDirectories(repo);
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
        CommitComparison none = (a, o, e) -> {
            throw new AssertionError("no comparison expected");
        };
        Ended since = run(repo, none, "--summary", "--since", commits[1], "--ledger", ledger.toString());
        assertThat(since.code()).as(since.err()).isZero();
        assertThat(since.out()).contains("power-ledger: counting only comparisons made at " + commits[1] + " or after it")
                .contains("resnet50, interleaved, +3 % planted, budget 10m: 2 of 2 failed the gate");
        Ended all = run(repo, none, "--summary", "--ledger", ledger.toString());
        assertThat(all.out()).contains("+3 % planted, budget 10m: 2 of 3 failed the gate");
        Ended bad = run(repo, none, "--summary", "--since", "no-such-commit", "--ledger", ledger.toString());
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err().strip()).isEqualTo("power-ledger: --since 'no-such-commit' is not a commit of this repository");
    }

    private static String git(Path repo, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("git", "-C", repo.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).strip();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }

    @Test
    void refusesBadArgumentsInOneLine() {
        Ended cell = run("--cell", "bert", "--slowdown", "3");
        assertThat(cell.code()).isEqualTo(2);
        assertThat(cell.err().strip()).isEqualTo("power-ledger: --cell 'bert' is not resnet50 or mlp-tiny");
        Ended pct = run("--cell", "mlp-tiny", "--slowdown", "3.5");
        assertThat(pct.code()).isEqualTo(2);
        assertThat(pct.err()).contains("is not a whole percent");
        Ended none = run("--summary", "--ledger", tmp.resolve("absent.tsv").toString());
        assertThat(none.code()).isEqualTo(2);
        assertThat(none.err()).contains("no ledger at");
        assertThat(run("--cell", "mlp-tiny", "--slowdown", "3", "--budget", "90s").err().strip())
                .isEqualTo("power-ledger: --budget '90s' is not whole minutes, e.g. 10m");
        assertThat(run("--cell", "mlp-tiny", "--slowdown", "3", "--count", "0").err().strip())
                .isEqualTo("power-ledger: --count '0' is not a whole number >= 1; expected comparisons to make, e.g. --count 8");
        assertThat(run("--cell").err().strip()).isEqualTo("power-ledger: --cell needs a value; expected resnet50 or mlp-tiny");
        assertThat(run("--bogus").err().strip()).startsWith("power-ledger: unknown option '--bogus' for power-ledger; expected: power-ledger [--cell");
        assertThat(run("--cell", "mlp-tiny", "--slowdown", "3").err().strip())
                .isEqualTo("power-ledger: build this checkout first: mvn -q package -DskipTests");
    }

    /** A checkout with a jar and a commit: what a proof needs before its first comparison. */
    private Path checkout() throws Exception {
        Path repo = Files.createDirectories(tmp.resolve("checkout"));
        git(repo, "init", "-q");
        Files.writeString(repo.resolve("f.txt"), "x\n");
        git(repo, "add", "-A");
        git(repo, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "c0");
        Files.createDirectories(repo.resolve("target"));
        Files.writeString(repo.resolve("target/benchmarks.jar"), "jar\n");
        return repo;
    }

    @Test
    void eachComparisonIsInTheLedgerAsSoonAsItEnds() throws Exception {
        Path repo = checkout();
        Path ledger = repo.resolve("ledger.tsv");
        int[] codes = {1, 3};
        CommitComparison comparison = (args, out, err) -> {
            try {
                // the comparisons before this one are in the ledger already
                assertThat(Files.readAllLines(ledger)).hasSize(1 + calls.size());
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            calls.add(args);
            out.println("compare-commits: a stand-in");
            return codes[calls.size() - 1];
        };
        Ended e = run(repo, comparison, "--cell", "mlp-tiny", "--slowdown", "3", "--count", "2", "--budget", "5m",
                "--ledger", ledger.toString());
        assertThat(e.code()).as(e.err()).isZero();
        assertThat(calls).hasSize(2);
        List<String> first = calls.get(0);
        assertThat(String.join(" ", first)).startsWith(". . -p model=mlp-tiny -p batchSize=1 -p threads=1 -wi 1 -w 500ms"
                + " -i 2 -r 500ms --precision 2% --budget 5m --fail-on-regression --seed ");
        assertThat(first.subList(first.size() - 4, first.size() - 1))
                .containsExactly("--head-args", "-jvmArgsAppend -Dinferbench.slowdown=3", "--out");
        Path folder = Path.of(first.get(first.size() - 1));
        assertThat(folder).as("not kept without --keep").doesNotExist();
        assertThat(folder.resolveSibling(folder.getFileName() + ".log")).content().contains("a stand-in");
        List<String> lines = Files.readAllLines(ledger);
        assertThat(lines).hasSize(3).first().isEqualTo(HEADER);
        String commit = git(repo, "rev-parse", "--short=12", "HEAD");
        for (int i = 1; i <= 2; i++) {
            String[] f = lines.get(i).split("\t", -1);
            assertThat(f).hasSize(14);
            assertThat(f[0]).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\dZ");
            assertThat(List.of(f).subList(1, 12)).containsExactly(commit, "mlp-tiny", "3", "5m", "n/a", "n/a", "n/a",
                    "n/a", "n/a", Integer.toString(codes[i - 1]), "n/a");
            assertThat(f[12]).matches("\\d+ cores, .+");
            assertThat(f[13]).isEqualTo("interleaved");
        }
        assertThat(e.out()).contains("[power-ledger] comparison 1 of 2: mlp-tiny, interleaved, 3 % planted, budget 5m,"
                        + " seed ")
                .contains("[power-ledger] exit 1: ratio n/a [n/a, n/a], n/a pairs, n/a disturbed left out (n/a)")
                .endsWith("mlp-tiny, interleaved, +3 % planted, budget 5m: 1 of 2 failed the gate (50 %; exact 95 %"
                        + " interval 1.3-98.7 %); 1 could not tell; 0 ended otherwise; pairs: median n/a\n");
    }

    @Test
    void anAaProofInTurnsKeepsItsFoldersAndRefusesAForeignLedger() throws Exception {
        Path repo = checkout();
        Path ledger = repo.resolve("ledger.tsv");
        CommitComparison comparison = (args, out, err) -> {
            calls.add(args);
            return 0;
        };
        Ended e = run(repo, comparison, "--cell", "resnet50", "--slowdown", "0", "--turns", "--keep", "--ledger",
                ledger.toString());
        assertThat(e.code()).as(e.err()).isZero();
        List<String> args = calls.get(0);
        assertThat(String.join(" ", args)).contains("-p model=resnet50 ").contains(" -w 1s -i 6 -r 1s ")
                .doesNotContain("--head-args").contains(" --turns --out ");
        assertThat(Path.of(args.get(args.size() - 1))).as("kept").isDirectory();
        assertThat(Files.readAllLines(ledger).get(1)).endsWith("\tturns").contains("\tresnet50\t0\t10m\t");
        Files.writeString(ledger, "when\tcommit\n");
        Ended foreign = run(repo, comparison, "--cell", "resnet50", "--slowdown", "0", "--ledger", ledger.toString());
        assertThat(foreign.code()).isEqualTo(2);
        assertThat(foreign.err().strip()).isEqualTo("power-ledger: " + ledger
                + " does not start with power-ledger's header; expected a ledger it wrote");
        assertThat(calls).hasSize(1);
    }
}

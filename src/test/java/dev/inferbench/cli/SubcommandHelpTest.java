package dev.inferbench.cli;

import dev.inferbench.ExitCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code SUBCOMMAND --help} and {@code -h}: each subcommand prints its usage line and every flag its parser takes,
 * exits 0 and does nothing else, whatever else the command line holds.
 */
class SubcommandHelpTest {
    /** Every flag each subcommand's parser accepts: a new flag or subcommand without help fails here. */
    private static final Map<String, List<String>> FLAGS = Map.ofEntries(
            Map.entry("merge", List.of("DIR...", "--run-dir OUT", "--config FILE")),
            Map.entry("variance", List.of("RUN", "--budget D", "--ab", "--min-effect P", "--fork-seconds S", "default 3.0%")),
            Map.entry("compare", List.of("BASE HEAD", "--min-effect P", "--fail-on-regression", "--inconclusive fail|pass",
                    "--missing undecided|regression",
                    "--keep-disturbed", "--unpaired", "--gate M,...", "--threshold T", "--precision P",
                    "--format F", "-v", "(default 3 %)")),
            Map.entry("flame", List.of("diff RUN_A RUN_B", "-o DIR")),
            Map.entry("models", List.of("NAME|FILE", "--seq-len N", "--json", "-p shape=SPEC", "--config FILE")),
            Map.entry("verify", List.of("NAME|FILE|TEST-SET-DIR", "--rtol R", "--atol A", "--out DIR", "(default 0.001)",
                    "(default 1E-7)", "-p shape=SPEC|values=SPEC", "--config FILE")),
            Map.entry("report", List.of("RUN...", "-o DIR", "--format LIST", "md,html,csv,gab,bmf,jmh,plots")),
            Map.entry("history", List.of("[DIR]", "-o OUT", "results/history", "--config FILE")),
            Map.entry("calibrate", List.of("--fast", "-o OUT", "aid-check MODEL PERCENT", "step-check MODEL",
                    "memory-plateau [--iterations 10]", "kill-resume [KILLS=5]", "tpot-crosscheck [--against c|node]",
                    "alloc-per-call MODEL", "open-loop-path [ROUNDS=2]")),
            Map.entry("compare-commits", List.of("BASE HEAD", "--precision P", "--budget D", "--forks N",
                    "--min-effect P", "--fail-on-regression", "--out DIR", "--head-args A", "--pin [CPUS]", "--duet",
                    "--turns", "--seed N", "--offline", "--no-where", "--where-every K", "--base-build A",
                    "--head-build A", "(default 3 %)")),
            Map.entry("bisect", List.of("GOOD BAD", "--budget B", "--min-effect E", "--out DIR", "--offline",
                    "(default 10m)")),
            Map.entry("power-ledger", List.of("--cell C", "--slowdown P", "--count N", "--budget B", "--turns", "--keep",
                    "--ledger FILE", "--summary", "--since COMMIT", "docs/evidence/power-ledger.tsv", "--two-builds C",
                    "--offline", "--each CMD")),
            Map.entry("power-modes", List.of("--cell C", "--modes M,...", "--rounds N", "--minutes N", "--budget B",
                    "--slowdown P", "--out DIR")));

    static Stream<Arguments> helps() {
        return Main.SUBCOMMANDS.keySet().stream()
                .flatMap(name -> Stream.of(Arguments.of(name, "--help"), Arguments.of(name, "-h")));
    }

    @Test
    void everySubcommandHasItsFlagsListedHere() {
        assertThat(FLAGS.keySet()).containsExactlyInAnyOrderElementsOf(Main.SUBCOMMANDS.keySet());
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("helps")
    void printsItsUsageAndFlags(String name, String flag) {
        Result r = run(name, flag);
        assertThat(r.code).isZero();
        assertThat(r.err).isEmpty();
        assertThat(r.out).startsWith("usage: java -jar target/benchmarks.jar " + name + " ");
        assertThat(r.out).contains(FLAGS.get(name));
        assertThat(r.out.lines()).as("no line over 120 characters").allSatisfy(l -> assertThat(l).hasSizeLessThanOrEqualTo(120));
    }

    @Test
    void helpWinsOverArgumentsThatWouldBeBadInput() {
        // without --help each of these is bad input (exit 2): help is answered before the arguments are read
        assertThat(run("compare", "only-one-run").code).isEqualTo(ExitCode.BAD_INPUT);
        Result r = run("compare", "only-one-run", "--format", "pdf", "--help");
        assertThat(r.code).isZero();
        assertThat(r.out).startsWith("usage: java -jar target/benchmarks.jar compare ");
        assertThat(run("report", "-h").out).doesNotContain("inferbench: report of");
    }

    @Test
    void theJarsHelpAcceptsTheLongFlagAndPointsToTheSubcommands() {
        Result r = run("--help");
        assertThat(r.code).isZero();
        assertThat(r.out).contains("SUBCOMMAND --help").contains("  compare: compare BASE HEAD");
    }

    private static Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new Main(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)).run(args);
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private record Result(int code, String out, String err) {
    }
}

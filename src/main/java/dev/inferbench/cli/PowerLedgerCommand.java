package dev.inferbench.cli;

import dev.inferbench.BenchException;
import dev.inferbench.ExitCode;
import dev.inferbench.commits.CommitComparison;
import dev.inferbench.commits.PowerLedger;
import dev.inferbench.commits.WrappedComparison;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code power-ledger --cell resnet50|mlp-tiny --slowdown P [--count N] [--budget 10m] [--turns] [--keep]
 * [--ledger FILE] [--two-builds COMMIT [--offline]] [--each CMD]} and {@code power-ledger --summary [--since COMMIT] [--ledger FILE]}: the gate's power and
 * false-alarm rate counted on real comparisons ({@link PowerLedger}). Here the flags are parsed and checked, in the
 * order the script it replaces checked them, and the comparison chosen.
 */
final class PowerLedgerCommand implements Subcommand {
    private static final String USAGE = "power-ledger --cell resnet50|mlp-tiny --slowdown P [--count N] [--budget 10m]"
            + " [--turns] [--keep] [--ledger FILE] [--two-builds COMMIT [--offline]] [--each CMD]"
            + " | --summary [--since COMMIT] [--ledger FILE]";
    private static final String FLAGS = "--cell, --slowdown, --count, --budget, --turns, --keep, --ledger,"
            + " --two-builds, --offline, --each, --summary or --since";

    private final Path checkout;
    private final CommitsWiring wiring;

    PowerLedgerCommand() {
        this(Path.of("").toAbsolutePath(), CommitsWiring.production());
    }

    /** @param checkout the checkout compared against itself: where the ledger's relative path starts */
    PowerLedgerCommand(Path checkout, CommitsWiring wiring) {
        this.checkout = checkout;
        this.wiring = wiring;
    }

    @Override
    public String summary() {
        return USAGE + ": the gate's power and false-alarm rate, counted on real comparisons";
    }

    @Override
    public String usage() {
        return USAGE_PREFIX + """
                power-ledger --cell resnet50|mlp-tiny --slowdown P [--count N] [--budget 10m]
                             [--turns] [--keep] [--ledger FILE]
                             [--two-builds COMMIT [--offline]] [--each CMD]
                       power-ledger --summary [--since COMMIT] [--ledger FILE]
                Makes N comparisons of this checkout against itself with compare-commits at the README's CI settings
                (--precision 2% --fail-on-regression), the slowdown aid planting P % on the head side (0: an A/A
                comparison), and appends one line per comparison to the ledger as soon as it ends; then prints the
                summary: per cell, mode, planted slowdown and budget, how many comparisons failed the gate, with the
                exact (Clopper-Pearson) 95 % interval of that rate. Run it from the checkout's root.
                  --cell C        resnet50 (batch 1, threads=1, -wi 1 -w 1s -i 2 -r 1s) or mlp-tiny (the same with
                                  -w 500ms -r 500ms); with --turns -i 6 instead of -i 2
                  --slowdown P    the planted slowdown, a whole percent from 0 to 50
                  --count N       comparisons to make (default 1)
                  --budget B      each comparison's budget, whole minutes (default 10m)
                  --turns         the pairs run in turns (compare-commits --turns); the ledger's mode column says so
                  --keep          keep each comparison's folder (forks, pair order, turn records)
                  --ledger FILE   the ledger, tab-separated with a header line (default
                                  docs/evidence/power-ledger.tsv); a comparison that ends in anything but a verdict
                                  (exit 0, 1 or 3) is written with its exit code and counted apart
                  --two-builds C  build commit C twice (two worktrees, two jars, sharing this checkout's
                                  models/) and compare one build against the other, the sides swapping every
                                  other comparison: the rate of a gate that compares two builds; the mode column
                                  says "two-builds"
                  --offline       build the two with mvn -o
                  --each CMD      run each comparison as a program under CMD (e.g. "flock /tmp/cpu.lock"), so
                                  that a lock is held one comparison at a time
                  --summary       only print the summary
                  --since COMMIT  count only comparisons made at COMMIT or a commit after it, so that a count never
                                  mixes two designs of the gate
                Exit 0 done, 2 bad input.
                """;
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws BenchException {
        try {
            PowerLedger.Request request = parse(args);
            List<String> each = each(args);
            CommitComparison comparison = request.summary() ? null : each.isEmpty() ? wiring.comparison()
                    : WrappedComparison.of(each, checkout.resolve(Path.of("target", "benchmarks.jar")));
            return new PowerLedger(checkout, comparison, out).run(request);
        } catch (BenchException e) {
            err.println("power-ledger: " + e.getMessage());
            return ExitCode.BAD_INPUT;
        } catch (IOException e) {
            throw new UncheckedIOException(e); // the file system's refusal, not bad input: Main says which
        }
    }

    static PowerLedger.Request parse(List<String> args) throws BenchException {
        String cell = "";
        String slowdown = "";
        String count = "1";
        String budget = "10m";
        Path ledger = PowerLedger.DEFAULT_LEDGER;
        boolean summary = false;
        boolean turns = false;
        boolean keep = false;
        String since = null;
        String twoBuilds = null;
        boolean offline = false;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--cell" -> cell = value(args, ++i, "--cell needs resnet50 or mlp-tiny");
                case "--slowdown" -> slowdown = value(args, ++i, "--slowdown needs a whole percent");
                case "--count" -> count = value(args, ++i, "--count needs a number");
                case "--budget" -> budget = value(args, ++i, "--budget needs minutes, e.g. 10m");
                case "--ledger" -> ledger = Path.of(value(args, ++i, "--ledger needs a file"));
                case "--summary" -> summary = true;
                case "--since" -> since = value(args, ++i, "--since needs a commit");
                case "--turns" -> turns = true;
                case "--keep" -> keep = true;
                case "--two-builds" -> twoBuilds = value(args, ++i, "--two-builds needs a commit");
                case "--offline" -> offline = true;
                case "--each" -> {
                    if (value(args, ++i, "--each needs a command, e.g. \"flock /tmp/cpu.lock\"").isBlank()) {
                        throw new BenchException("--each needs a command, e.g. \"flock /tmp/cpu.lock\"");
                    }
                }
                default -> throw new BenchException("unknown argument '" + a + "'; expected " + FLAGS);
            }
        }
        if (summary) {
            return new PowerLedger.Request(null, 0, 0, budget, turns, keep, ledger, true, since, null, false);
        }
        if (offline && twoBuilds == null) {
            throw new BenchException("--offline is how --two-builds builds; expected it with --two-builds COMMIT");
        }
        PowerLedger.Cell c = switch (cell) {
            case "resnet50" -> PowerLedger.Cell.RESNET50;
            case "mlp-tiny" -> PowerLedger.Cell.MLP_TINY;
            default -> throw new BenchException("--cell '" + cell + "' is not resnet50 or mlp-tiny");
        };
        if (!slowdown.matches("[0-9]{1,9}") || Integer.parseInt(slowdown) > 50) {
            throw new BenchException("--slowdown '" + slowdown + "' is not a whole percent from 0 to 50");
        }
        if (!count.matches("[1-9][0-9]{0,8}")) {
            throw new BenchException("--count '" + count + "' is not a whole number >= 1");
        }
        // the ledger counts comparisons of one budget together by its text: one spelling per budget
        if (!budget.matches("[1-9][0-9]{0,5}m")) {
            throw new BenchException("--budget '" + budget + "' is not whole minutes, e.g. 10m");
        }
        return new PowerLedger.Request(c, Integer.parseInt(slowdown), Integer.parseInt(count), budget, turns, keep,
                ledger, false, since, twoBuilds, offline);
    }

    /** The --each wrapper's words; empty without one. */
    static List<String> each(List<String> args) {
        int i = args.indexOf("--each");
        return i < 0 || i + 1 >= args.size() ? List.of() : List.of(args.get(i + 1).strip().split("\\s+"));
    }

    private static String value(List<String> args, int i, String message) throws BenchException {
        if (i >= args.size()) {
            throw new BenchException(message);
        }
        return args.get(i);
    }
}

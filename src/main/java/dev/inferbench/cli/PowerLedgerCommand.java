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
import java.util.Map;

/**
 * {@code power-ledger}: the gate's power and false-alarm rate counted on real comparisons ({@link PowerLedger}). Here
 * the flags are read and the comparison chosen.
 */
final class PowerLedgerCommand implements Subcommand {
    /** The cells of power-ledger and power-modes. */
    static final Options.Type<PowerLedger.Cell> CELL_TYPE = Options.choice("resnet50 or mlp-tiny",
            Map.of("resnet50", PowerLedger.Cell.RESNET50, "mlp-tiny", PowerLedger.Cell.MLP_TINY));
    /** Whole minutes, {@code 10} or {@code 10m}. */
    static final Options.Type<Integer> MINUTES_TYPE = new Options.Type<>("whole minutes, e.g. 10m", (t, f) -> {
        if (!t.matches("[1-9][0-9]{0,5}m?")) {
            throw new BenchException(f + " '" + t + "' is not whole minutes, e.g. 10m");
        }
        return Integer.parseInt(t.replace("m", ""));
    });
    /** A planted slowdown: a whole percent from 0 to 50. */
    static final Options.Type<Integer> SLOWDOWN_TYPE = new Options.Type<>("a whole percent from 0 to 50", (t, f) -> {
        if (!t.matches("[0-9]{1,2}") || Integer.parseInt(t) > 50) {
            throw new BenchException(f + " '" + t + "' is not a whole percent from 0 to 50");
        }
        return Integer.parseInt(t);
    });

    private static final String EACH_EXPECTED = "a command, e.g. \"flock /tmp/cpu.lock\"";

    private static final Options OPTIONS = new Options("power-ledger", "");
    private static final Options.Flag<PowerLedger.Cell> CELL = OPTIONS.value("--cell", "C", CELL_TYPE, null,
            "resnet50 (batch 1, threads=1, -wi 1 -w 1s -i 2 -r 1s) or mlp-tiny (the same with -w 500ms -r 500ms);"
                    + " with --turns -i 6 instead of -i 2, and mlp-tiny with --turns as statistics.md's \"Microsecond"
                    + " cells\" says: -w 1s -i 20 -r 100ms on the last CPU, the others kept busy, --gate trimmed");
    private static final Options.Flag<Integer> SLOWDOWN = OPTIONS.value("--slowdown", "P", SLOWDOWN_TYPE, null,
            "the planted slowdown, a whole percent from 0 to 50");
    private static final Options.Flag<Integer> COUNT = OPTIONS.value("--count", "N",
            Options.whole(1, "comparisons to make, e.g. --count 8"), 1, "comparisons to make (default 1)");
    private static final Options.Flag<Integer> BUDGET = OPTIONS.value("--budget", "B", MINUTES_TYPE, 10,
            "each comparison's budget, whole minutes (default 10m)");
    private static final Options.Flag<Boolean> TURNS = OPTIONS.toggle("--turns",
            "the pairs run in turns (compare-commits --turns); the ledger's mode column says so");
    private static final Options.Flag<Boolean> KEEP = OPTIONS.toggle("--keep",
            "keep each comparison's folder (forks, pair order, turn records)");
    private static final Options.Flag<Path> LEDGER = OPTIONS.value("--ledger", "FILE", Options.FILE,
            PowerLedger.DEFAULT_LEDGER, "the ledger, tab-separated with a header line (default "
                    + PowerLedger.DEFAULT_LEDGER + "); a comparison that ends in anything but a verdict (exit 0, 1 or 3)"
                    + " is written with its exit code and counted apart");
    private static final Options.Flag<String> TWO_BUILDS = OPTIONS.value("--two-builds", "C",
            Options.TEXT.expecting("a commit"), null, "build commit C twice (two worktrees, two jars, sharing this"
                    + " checkout's models/) and compare one build against the other, the sides swapping every other"
                    + " comparison: the rate of a gate that compares two builds; the mode column says \"two-builds\"");
    private static final Options.Flag<Boolean> OFFLINE = OPTIONS.toggle("--offline", "build the two with mvn -o");
    private static final Options.Flag<List<String>> EACH = OPTIONS.value("--each", "CMD",
            new Options.Type<>(EACH_EXPECTED, (t, f) -> {
                if (t.isBlank()) {
                    throw new BenchException(f + " needs " + EACH_EXPECTED);
                }
                return List.of(t.strip().split("\\s+"));
            }), List.of(), "run each comparison as a program under CMD (e.g. \"flock /tmp/cpu.lock\"), so that a lock"
                    + " is held one comparison at a time");
    private static final Options.Flag<Boolean> SUMMARY = OPTIONS.toggle("--summary", "only print the summary");
    private static final Options.Flag<String> SINCE = OPTIONS.value("--since", "COMMIT",
            Options.TEXT.expecting("a commit"), null, "count only comparisons made at COMMIT or a commit after it, so"
                    + " that a count never mixes two designs of the gate");

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
        return "--cell C --slowdown P [--count N] ... | --summary: the gate's power and false-alarm rate, counted on"
                + " real comparisons";
    }

    @Override
    public String usage() {
        return OPTIONS.usage("""
                Makes N comparisons of this checkout against itself with compare-commits at the README's CI settings
                (--precision 2% --fail-on-regression), the slowdown aid planting P % on the head side (0: an A/A
                comparison), and appends one line per comparison to the ledger as soon as it ends; then prints the
                summary: per cell, mode, planted slowdown and budget, how many comparisons failed the gate, with the
                exact (Clopper-Pearson) 95 % interval of that rate. With --summary it only prints the summary.
                Run it from the checkout's root.
                """, "Exit 0 done, 2 bad input.\n");
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
        Options.Parsed p = OPTIONS.parse(args);
        // the ledger counts comparisons of one budget together by its text: one spelling per budget
        String budget = p.get(BUDGET) + "m";
        if (p.get(SUMMARY)) {
            return new PowerLedger.Request(null, 0, 0, budget, p.get(TURNS), p.get(KEEP), p.get(LEDGER), true,
                    p.get(SINCE), null, false);
        }
        if (p.get(OFFLINE) && !p.has(TWO_BUILDS)) {
            throw new BenchException("--offline is how --two-builds builds; expected it with --two-builds COMMIT");
        }
        if (!p.has(CELL) || !p.has(SLOWDOWN)) {
            throw new BenchException("power-ledger needs --cell C and --slowdown P; expected e.g. --cell mlp-tiny"
                    + " --slowdown 3");
        }
        return new PowerLedger.Request(p.get(CELL), p.get(SLOWDOWN), p.get(COUNT), budget, p.get(TURNS),
                p.get(KEEP), p.get(LEDGER), false, p.get(SINCE), p.get(TWO_BUILDS), p.get(OFFLINE));
    }

    /** The --each wrapper's words; empty without one. */
    static List<String> each(List<String> args) throws BenchException {
        return OPTIONS.parse(args).get(EACH);
    }
}

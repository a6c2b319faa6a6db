package dev.inferbench.cli;

import dev.inferbench.ExitCode;
import dev.inferbench.BenchException;
import dev.inferbench.compare.Comparer;
import dev.inferbench.compare.PilotRecord;
import dev.inferbench.compare.StopAnswer;
import dev.inferbench.compare.Threshold;
import dev.inferbench.flow.CompareFlow;
import dev.inferbench.stats.StoppingRule;
import dev.inferbench.stats.Verdict;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code compare BASE HEAD}: every cell both runs have, every metric, direction-aware, with the ratio's interval and
 * a verdict; "inconclusive" is never a silent pass (its flags and exit codes: {@link #usage}).
 * With {@code --precision P} it adds one line saying how many cells are settled ({@link StoppingRule}: the
 * primary metric's ratio interval narrower than P, from 8 forks). compare-commits does not read it: it asks
 * {@link StopAnswer}'s question, whose answer never depends on a verdict. A comparison whose pairs its pilot chose
 * says so beside its runs ({@link PilotRecord}), and the paired intervals take their spread from those pairs.
 * Here the flags are read; {@link CompareFlow} compares, prints and decides the ending, which becomes the exit code.
 */
final class CompareCommand implements Subcommand {
    private static final Options OPTIONS = new Options("compare", "BASE HEAD")
            .row("BASE HEAD", "two run folders (or JMH JSON result files)");
    private static final Options.Flag<Double> MIN_EFFECT = OPTIONS.value("--min-effect", "P", Options.PERCENT,
            Verdict.DEFAULT_MIN_EFFECT, "the smallest change that counts (default "
                    + CompareFlow.percent(Verdict.DEFAULT_MIN_EFFECT) + " %)");
    private static final Options.Flag<Boolean> FAIL = OPTIONS.toggle("--fail-on-regression", "exit 1 on a regression"
            + " of a gated metric, 3 when a gated row could not tell or a gated cell or metric was measured on one side"
            + " only");
    private static final Options.Flag<Boolean> INCONCLUSIVE_PASSES = OPTIONS.value("--inconclusive", "fail|pass",
            Options.choice("a choice; expected fail (exit " + ExitCode.UNDECIDED + ", the default) or pass",
                    Map.of("pass", true, "fail", false)), false,
            "whether a gated row that could not tell fails the gate (exit 3, the default) or passes");
    private static final Options.Flag<Boolean> LOST_FAILS = OPTIONS.value("--missing", "undecided|regression",
            Options.choice("a choice; expected undecided (exit " + ExitCode.UNDECIDED + ", the default) or regression"
                    + " (exit " + CompareFlow.Ending.FAILED.exitCode() + ")", Map.of("regression", true, "undecided", false)),
            false, "what a gated cell or metric that BASE measured and HEAD lacks makes of the gate: could not tell"
                    + " (exit 3, the default) or a regression (exit 1); one that only HEAD has is always 3");
    private static final Options.Flag<Boolean> KEEP_DISTURBED = OPTIONS.toggle("--keep-disturbed", "keep the pairs"
            + " run while the machine was disturbed (machine.tsv beside the runs, else the forks' own canary and /proc"
            + " readings)");
    private static final Options.Flag<Boolean> UNPAIRED = OPTIONS.toggle("--unpaired",
            "read the sides as run apart (what the pairing buys, on the same forks)");
    /** {@code --gate}'s value, as compare and compare-commits take it. */
    static final Options.Type<Set<String>> GATE_METRICS = new Options.Type<>("metrics, e.g. primary,p99",
            (t, f) -> gateMetrics(t));
    static final String GATE_HELP = "the metrics the gate covers (default primary; e.g. primary,p99,mem.rss.peak;"
            + " trimmed for a cell of microseconds: docs/statistics.md, \"Microsecond cells\")";
    private static final Options.Flag<Set<String>> GATE = OPTIONS.value("--gate", "M,...", GATE_METRICS,
            Comparer.PRIMARY_ONLY, GATE_HELP);
    private static final Options.Flag<Threshold> THRESHOLD = OPTIONS.value("--threshold", "T",
            new Options.Type<>("a check, e.g. 'p99<100ms'", (t, f) -> Threshold.parse(t)), null,
            "an absolute bound on HEAD, '[param=v:]metric<value', repeatable").repeatable();
    private static final Options.Flag<Double> PRECISION = OPTIONS.value("--precision", "P", Options.PERCENT, Double.NaN,
            "add a line: how many cells' intervals are narrower than P");
    private static final Options.Flag<String> FORMAT = OPTIONS.value("--format", "F",
            new Options.Type<>("table, md, json or html", (t, f) -> format(t)), "table",
            "table (default), md, json or html");
    private static final Options.Flag<Boolean> ALL_ROWS = OPTIONS.toggle("-v",
            "every row in table and md (json and html always hold every row)");

    @Override
    public String summary() {
        return OPTIONS.synopsis() + ": two runs cell by cell, ratio intervals with forks as the unit, verdicts and CI gates";
    }

    @Override
    public String usage() {
        return OPTIONS.usage("""
                Compares two runs cell by cell and metric by metric: the ratio HEAD/BASE with its interval, forks as
                the unit, paired fork by fork where the forks ran side by side, and a verdict per row. An
                interval, and so a verdict, needs 2 forks a side or more (-f 2), or 3 pairs or more of forks run
                side by side (compare-commits); a cell with fewer is one line that says so. The table shows
                the gated rows and those whose change is shown (the ratio's interval excludes 1), then one line
                counting the rest; ± is half each side's interval, in the row's unit.
                """, "Exit 0 pass, 1 regression or failed threshold, 2 bad input, 3 could not tell (docs/statistics.md).\n");
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws BenchException {
        Options.Parsed p = OPTIONS.parse(args);
        List<Path> runs = p.operands().stream().map(Path::of).toList();
        if (runs.size() != 2) {
            throw new BenchException("compare needs two run folders, got " + runs.size() + "; expected: "
                    + OPTIONS.synopsis());
        }
        return new CompareFlow(out, err).compare(new CompareFlow.Request(runs, p.get(MIN_EFFECT), p.get(FAIL),
                p.get(INCONCLUSIVE_PASSES), p.get(LOST_FAILS), p.get(KEEP_DISTURBED), p.get(UNPAIRED), p.get(GATE),
                p.all(THRESHOLD), p.get(PRECISION), p.get(FORMAT), p.get(ALL_ROWS))).exitCode();
    }

    private static String format(String f) throws BenchException {
        if (!List.of("table", "md", "json", "html").contains(f)) {
            throw new BenchException("unknown format '" + f + "'; expected one of: table, md, json, html");
        }
        return f;
    }

    /** {@code --gate time,p99,mem.rss.peak}: the metrics whose regressions fail the gate ({@code primary} by default). */
    private static Set<String> gateMetrics(String list) throws BenchException {
        Set<String> names = Arrays.stream(list.split(",")).map(String::strip).filter(n -> !n.isEmpty())
                .collect(Collectors.toCollection(LinkedHashSet::new));
        if (names.isEmpty()) {
            throw new BenchException("--gate '" + list + "' names no metric; expected e.g. --gate primary,p99,mem.rss.peak");
        }
        return names;
    }
}

package dev.inferbench.cli;

import dev.inferbench.ExitCode;
import dev.inferbench.BenchException;
import dev.inferbench.Numbers;
import dev.inferbench.compare.Comparer;
import dev.inferbench.compare.PilotRecord;
import dev.inferbench.compare.StopAnswer;
import dev.inferbench.compare.Threshold;
import dev.inferbench.flow.CompareFlow;
import dev.inferbench.stats.StoppingRule;
import dev.inferbench.stats.Verdict;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code compare BASE HEAD [--min-effect 3%] [--fail-on-regression] [--threshold T]... [--precision P]
 * [--format table|md|json|html]}: every cell both runs have, every metric, direction-aware, with the ratio's interval
 * and a verdict. Exit code 0 pass, 1 a regression (with --fail-on-regression) or a failed threshold, 2 bad input,
 * 3 a gated row that could not tell (with --fail-on-regression, unless {@code --inconclusive pass}): "inconclusive" is
 * never a silent pass, and each such row says the smallest change the comparison could have seen. A gated cell or
 * metric measured on one side only is 3 too, one line each saying which side lacks it; {@code --missing regression}
 * makes one that HEAD lost exit 1.
 * With {@code --precision P} it adds one line saying how many cells are settled ({@link StoppingRule}: the
 * primary metric's ratio interval narrower than P, from 8 forks). compare-commits does not read it: it asks
 * {@link StopAnswer}'s question, whose answer never depends on a verdict. A comparison whose pairs its pilot chose
 * says so beside its runs ({@link PilotRecord}), and the paired intervals take their spread from those pairs.
 * Here the flags are parsed; {@link CompareFlow} compares, prints and decides the ending, which becomes the exit code.
 */
final class CompareCommand implements Subcommand {
    private static final String USAGE = "compare BASE HEAD [--min-effect 3%] [--fail-on-regression] [--inconclusive fail|pass]"
            + " [--missing undecided|regression] [--keep-disturbed] [--unpaired] [--gate M,...] [--threshold T]..."
            + " [--precision P] [--format table|md|json|html] [-v]";

    @Override
    public String summary() {
        return USAGE + ": two runs cell by cell, ratio intervals with forks as the unit, verdicts and CI gates";
    }

    @Override
    public String usage() {
        return USAGE_PREFIX + """
                compare BASE HEAD [--min-effect P] [--fail-on-regression]
                        [--inconclusive fail|pass] [--missing undecided|regression]
                        [--keep-disturbed] [--unpaired] [--gate M,...]
                        [--threshold T]... [--precision P] [--format F] [-v]
                Compares two runs cell by cell and metric by metric: the ratio HEAD/BASE with its interval, forks as
                the unit, paired fork by fork where the forks ran side by side, and a verdict per row. An
                interval, and so a verdict, needs 2 forks a side or more (-f 2), or 3 pairs or more of forks run
                side by side (compare-commits); a cell with fewer is one line that says so. The table shows
                the gated rows and those whose change is shown (the ratio's interval excludes 1), then one line
                counting the rest; ± is half each side's interval, in the row's unit.
                  BASE HEAD                 two run folders (or JMH JSON result files)
                  --min-effect P            the smallest change that counts (default %s %%)
                  --fail-on-regression      exit 1 on a regression of a gated metric, 3 when a gated row could not tell
                                            or a gated cell or metric was measured on one side only
                  --inconclusive fail|pass  whether a gated row that could not tell fails the gate (exit 3, the
                                            default) or passes
                  --missing undecided|regression
                                            what a gated cell or metric that BASE measured and HEAD lacks makes of
                                            the gate: could not tell (exit 3, the default) or a regression (exit 1);
                                            one that only HEAD has is always 3
                  --keep-disturbed          keep the pairs run while the machine was disturbed (machine.tsv beside the
                                            runs, else the forks' own canary and /proc readings)
                  --unpaired                read the sides as run apart (what the pairing buys, on the same forks)
                  --gate M,...              the metrics the gate covers (default primary; e.g. primary,p99,mem.rss.peak)
                  --threshold T             an absolute bound on HEAD, '[param=v:]metric<value', repeatable
                  --precision P             add a line: how many cells' intervals are narrower than P
                  --format F                table (default), md, json or html
                  -v                        every row in table and md (json and html always hold every row)
                Exit 0 pass, 1 regression or failed threshold, 2 bad input, 3 could not tell (docs/statistics.md).
                """.formatted(CompareFlow.percent(Verdict.DEFAULT_MIN_EFFECT));
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws BenchException {
        List<Path> runs = new ArrayList<>();
        double minEffect = Verdict.DEFAULT_MIN_EFFECT;
        boolean failOnRegression = false;
        boolean inconclusivePasses = false;
        boolean lostFails = false;
        boolean keepDisturbed = false;
        boolean unpaired = false;
        String format = "table";
        List<Threshold> thresholds = new ArrayList<>();
        double precision = Double.NaN;
        Set<String> gate = Comparer.PRIMARY_ONLY;
        boolean allRows = false;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--min-effect" -> minEffect = Numbers.percent(value(args, ++i, a), a);
                case "--fail-on-regression" -> failOnRegression = true;
                case "--inconclusive" -> inconclusivePasses = inconclusive(value(args, ++i, a));
                case "--missing" -> lostFails = missing(value(args, ++i, a));
                case "--keep-disturbed" -> keepDisturbed = true;
                case "--unpaired" -> unpaired = true;
                case "--gate" -> gate = gateMetrics(value(args, ++i, a));
                case "--threshold" -> thresholds.add(Threshold.parse(value(args, ++i, a)));
                case "--precision" -> precision = Numbers.percent(value(args, ++i, a), a);
                case "-v" -> allRows = true;
                case "--format" -> {
                    format = value(args, ++i, a);
                    if (!List.of("table", "md", "json", "html").contains(format)) {
                        throw new BenchException("unknown format '" + format + "'; expected one of: table, md, json, html");
                    }
                }
                default -> {
                    if (a.startsWith("-")) {
                        throw new BenchException("unknown option '" + a + "' for compare; expected: " + USAGE);
                    }
                    runs.add(Path.of(a));
                }
            }
        }
        if (runs.size() != 2) {
            throw new BenchException("compare needs two run folders, got " + runs.size() + "; expected: " + USAGE);
        }
        return new CompareFlow(out, err).compare(new CompareFlow.Request(runs, minEffect, failOnRegression,
                inconclusivePasses, lostFails, keepDisturbed, unpaired, gate, thresholds, precision, format, allRows)).exitCode();
    }

    /** {@code --gate time,p99,mem.rss.peak}: the metrics whose regressions fail the gate ({@code primary} by default). */
    private static Set<String> gateMetrics(String list) throws BenchException {
        Set<String> names = new LinkedHashSet<>();
        for (String n : list.split(",")) {
            if (!n.isBlank()) {
                names.add(n.strip());
            }
        }
        if (names.isEmpty()) {
            throw new BenchException("--gate '" + list + "' names no metric; expected e.g. --gate primary,p99,mem.rss.peak");
        }
        return names;
    }

    /** {@code --inconclusive fail|pass}: whether a gated row that could not tell fails the gate (exit 3) or passes. */
    private static boolean inconclusive(String v) throws BenchException {
        return switch (v) {
            case "pass" -> true;
            case "fail" -> false;
            default -> throw new BenchException("--inconclusive '" + v + "' is not a choice; expected fail (exit "
                    + ExitCode.UNDECIDED + ", the default) or pass");
        };
    }

    /** {@code --missing undecided|regression}: whether a gated cell or metric HEAD lost is a regression (exit 1). */
    private static boolean missing(String v) throws BenchException {
        return switch (v) {
            case "regression" -> true;
            case "undecided" -> false;
            default -> throw new BenchException("--missing '" + v + "' is not a choice; expected undecided (exit "
                    + ExitCode.UNDECIDED + ", the default) or regression (exit " + CompareFlow.Ending.FAILED.exitCode()
                    + ")");
        };
    }

    private static String value(List<String> args, int i, String flag) throws BenchException {
        if (i >= args.size()) {
            throw new BenchException(flag + " needs a value; expected: " + USAGE);
        }
        return args.get(i);
    }
}

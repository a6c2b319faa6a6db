package dev.inferbench.cli;

import dev.inferbench.results.MachineState;
import dev.inferbench.results.jmh.MeasuredCell;
import java.util.Optional;
import dev.inferbench.BenchException;
import dev.inferbench.compare.Comparer;
import dev.inferbench.compare.MachineRecord;
import dev.inferbench.compare.Gate;
import dev.inferbench.compare.StopAnswer;
import dev.inferbench.compare.RunReader;
import dev.inferbench.compare.Threshold;
import dev.inferbench.report.CompareHtml;
import dev.inferbench.report.CompareJson;
import dev.inferbench.report.CompareTable;
import dev.inferbench.stats.Verdict;
import dev.inferbench.stats.Interval;
import dev.inferbench.stats.Power;
import dev.inferbench.compare.Comparison;
import dev.inferbench.compare.CellKey;
import dev.inferbench.compare.Where;
import dev.inferbench.compare.WhereRuns;
import dev.inferbench.report.WhereTable;
import java.util.Map;
import java.util.Locale;
import dev.inferbench.stats.StoppingRule;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
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
 * never a silent pass, and each such row says the smallest change the comparison could have seen.
 * With {@code --precision P} it adds one line saying how many cells are settled ({@link StoppingRule}: the
 * primary metric's ratio interval narrower than P, from 8 forks). tools/compare-commits.sh does not read it: it asks
 * {@code --stop-status} ({@link StopAnswer}), whose answer never depends on a verdict.
 */
final class CompareCommand implements Subcommand {
    private static final String USAGE = "compare BASE HEAD [--min-effect 3%] [--fail-on-regression] [--inconclusive fail|pass]"
            + " [--keep-disturbed] [--unpaired] [--gate M,...] [--threshold T]... [--precision P] [--pilot N]"
            + " [--stop-status --max-pairs N] [--format table|md|json|html]";

    @Override
    public String summary() {
        return USAGE + ": two runs cell by cell, ratio intervals with forks as the unit, verdicts and CI gates";
    }

    @Override
    public String usage() {
        return USAGE_PREFIX + """
                compare BASE HEAD [--min-effect P] [--fail-on-regression]
                        [--inconclusive fail|pass] [--keep-disturbed] [--unpaired] [--gate M,...]
                        [--threshold T]... [--precision P] [--pilot N]
                        [--stop-status --max-pairs N] [--format F]
                Compares two runs cell by cell and metric by metric: the ratio HEAD/BASE with its interval, forks as
                the unit, paired fork by fork where the forks ran side by side, and a verdict per row. An
                interval, and so a verdict, needs 2 forks a side or more (-f 2), or 3 pairs or more of forks run
                side by side (--duet, tools/compare-commits.sh); a cell with fewer is one line that says so.
                  BASE HEAD                 two run folders (or JMH JSON result files)
                  --min-effect P            the smallest change that counts (default %s %%)
                  --fail-on-regression      exit 1 on a regression of a gated metric, 3 when a gated row could not tell
                  --inconclusive fail|pass  whether a gated row that could not tell fails the gate (exit 3, the
                                            default) or passes
                  --keep-disturbed          keep the pairs run while the machine was disturbed (machine.tsv beside the
                                            runs, else the forks' own canary and /proc readings)
                  --unpaired                read the sides as run apart (what the pairing buys, on the same forks)
                  --gate M,...              the metrics the gate covers (default primary; e.g. primary,p99,mem.rss.peak)
                  --threshold T             an absolute bound on HEAD, '[param=v:]metric<value', repeatable
                  --precision P             add a line: how many cells' intervals are narrower than P
                  --pilot N                 the number of pairs was chosen from the first N pairs (Stein's two
                                            stages): paired intervals take their spread from those N pairs
                  --stop-status             print only one line, "stop: ..." or "continue: ...": whether every
                                            gated row has the pairs its pilot asks for at --precision P (needs
                                            --precision, --pilot and --max-pairs; what compare-commits asks)
                  --max-pairs N             the most pairs the comparison may run
                  --format F                table (default), md, json or html
                Exit 0 pass, 1 regression or failed threshold, 2 bad input, 3 could not tell (docs/statistics.md).
                """.formatted(percent(Verdict.DEFAULT_MIN_EFFECT));
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws BenchException {
        List<Path> runs = new ArrayList<>();
        double minEffect = Verdict.DEFAULT_MIN_EFFECT;
        boolean failOnRegression = false;
        boolean inconclusivePasses = false;
        boolean keepDisturbed = false;
        boolean unpaired = false;
        String format = "table";
        List<Threshold> thresholds = new ArrayList<>();
        double precision = Double.NaN;
        Set<String> gate = Comparer.PRIMARY_ONLY;
        int pilot = Integer.MAX_VALUE;
        int maxPairs = -1;
        boolean stopStatus = false;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--min-effect" -> minEffect = RunFlags.percent(value(args, ++i, a), a);
                case "--fail-on-regression" -> failOnRegression = true;
                case "--inconclusive" -> inconclusivePasses = inconclusive(value(args, ++i, a));
                case "--keep-disturbed" -> keepDisturbed = true;
                case "--unpaired" -> unpaired = true;
                case "--gate" -> gate = gateMetrics(value(args, ++i, a));
                case "--threshold" -> thresholds.add(Threshold.parse(value(args, ++i, a)));
                case "--precision" -> precision = RunFlags.percent(value(args, ++i, a), a);
                case "--pilot" -> pilot = count(value(args, ++i, a), a, 3);
                case "--max-pairs" -> maxPairs = count(value(args, ++i, a), a, 3);
                case "--stop-status" -> stopStatus = true;
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
        if (stopStatus && (Double.isNaN(precision) || pilot == Integer.MAX_VALUE || maxPairs < 0)) {
            throw new BenchException("--stop-status needs --precision P, --pilot N and --max-pairs N; found "
                    + (Double.isNaN(precision) ? "no --precision" : pilot == Integer.MAX_VALUE ? "no --pilot" : "no --max-pairs"));
        }
        List<MeasuredCell> baseCells = RunReader.readCells(runs.get(0));
        List<MeasuredCell> candidateCells = RunReader.readCells(runs.get(1));
        // --unpaired reads the sides as if they had been run apart: what pairing buys, on the same forks
        var candidate = unpaired ? RunReader.of(candidateCells) : RunReader.of(candidateCells, runs.get(1));
        var baseline = unpaired ? RunReader.of(baseCells) : RunReader.of(baseCells, runs.get(0));
        Comparer.Report report = Comparer.compare(baseline, candidate, minEffect,
                Verdict.CONFIDENCE, gate, keepDisturbed, pilot);
        checkGateNames(gate, report);
        if (stopStatus) {
            out.println(StopAnswer.of(report, precision, pilot, maxPairs).line());
            return Main.OK;
        }
        List<Gate.Check> checks = Gate.check(thresholds, candidate);
        Map<CellKey, Where> where = WhereRuns.of(runs.get(0), runs.get(1), report);
        switch (format) {
            case "md" -> out.print(CompareTable.markdown(report));
            case "json" -> {
                try {
                    CompareJson.write(report, where, out);
                } catch (IOException e) {
                    throw new BenchException("cannot write JSON: " + e.getMessage(), e);
                }
            }
            case "html" -> {
                Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8);
                CompareHtml.write(report, runs.get(0).toString(), runs.get(1).toString(), w);
            }
            default -> out.print(CompareTable.text(report));
        }
        PrintStream notes = format.equals("json") || format.equals("html") ? err : out;
        report.rows().stream().filter(r -> notes == out && WhereTable.shown(r) && where.containsKey(r.cell()))
                .forEach(r -> out.print(WhereTable.text(r.cell().label(CompareTable.varying(report)), where.get(r.cell()))));
        machineDifference(baseCells, candidateCells).ifPresent(notes::println);
        insideFlag(report, runs).ifPresent(notes::println);
        checks.forEach(c -> notes.println("threshold " + c.line()));
        if (!Double.isNaN(precision)) {
            notes.println(settled(report, precision));
        }
        List<String> undecided = report.undecided().stream()
                .map(r -> couldNotTell(r, r.cell().label(CompareTable.varying(report)))).toList();
        List<Comparison> tooFew = report.undecided().stream().filter(CompareTable::tooFewForks).toList();
        if (tooFew.size() > 1) {
            // the table says it on each cell's line; one line here says what to do, not one per cell
            notes.println("could not tell in " + tooFew.size() + " rows: too few forks for an interval (the table's"
                    + " verdicts); run each side with -f " + CompareTable.FORKS_NEEDED + " or more, or compare them"
                    + " fork by fork with --duet");
            undecided.stream().filter(l -> !l.contains("; an interval needs ")).forEach(notes::println);
        } else {
            undecided.forEach(notes::println);
        }
        for (Comparison r : report.rows()) {
            if (r.gated() && r.drift().widened()) {
                notes.println("inferbench: " + r.cell().label(CompareTable.varying(report)) + " " + r.metric() + ": "
                        + r.drift().note(r.pairs().count()));
            }
        }
        boolean regression = failOnRegression && report.anyWorse();
        if (regression) {
            notes.println(String.format(Locale.ROOT, "inferbench: regression in %d of the gate's %d rows: each ratio's"
                            + " %s %% interval lies wholly above no change and reaches past the minimum effect of %s %%"
                            + " (--fail-on-regression)", report.regressions().size(), report.family(),
                    percent(report.gateConfidence()), percent(minEffect)));
        }
        if (regression || checks.stream().anyMatch(c -> !c.passed())) {
            return Main.CELLS_FAILED;
        }
        if (failOnRegression && !undecided.isEmpty() && !inconclusivePasses) {
            notes.println("inferbench: could not tell in " + undecided.size() + " of the gate's " + report.family()
                    + " rows: no change shown, and none ruled out down to the minimum effect; exit " + Main.UNDECIDED
                    + " (--inconclusive pass to let it pass)");
            return Main.UNDECIDED;
        }
        return Main.OK;
    }

    /**
     * "could not tell: <cell> time 1.012 [0.951, 1.077] (paired, 10 pairs): this comparison sees changes of 11 % or
     * more; run longer or use --duet".
     */
    private static String couldNotTell(Comparison r, String cell) {
        Interval i = r.ratio();
        if (CompareTable.tooFewForks(r)) {
            return String.format(Locale.ROOT, "could not tell: %s %s %.3f: %s (run each side with -f %d or more, or"
                    + " compare them fork by fork with --duet)", cell, r.metric(), i.estimate(), CompareTable.tooFewNote(r),
                    CompareTable.FORKS_NEEDED);
        }
        double visible = Power.visibleChange(i);
        String sees = Double.isNaN(visible) ? "too few forks for an interval (at least 2 a side, 3 pairs)"
                : String.format(Locale.ROOT, "this comparison sees changes of %s or more (95 %% power)",
                visible < 1 ? String.format(Locale.ROOT, "%.0f %%", Math.max(1, Math.ceil(visible * 100)))
                        : String.format(Locale.ROOT, "%.0fx", 1 + visible));
        return String.format(Locale.ROOT, "could not tell: %s %s %.3f [%.3f, %.3f] (%s): %s; run longer or use --duet",
                cell, r.metric(), i.estimate(), i.lower(), i.upper(),
                r.paired() ? "paired, " + r.pairs().count() + " pairs" : "unpaired, " + i.forks() + " forks",
                sees);
    }

    /** "settled 3 of 4 cells; unsettled: ..." over each cell's primary metric (its first row). */
    private static String settled(Comparer.Report report, double precision) {
        List<String> unsettled = new ArrayList<>();
        int cells = 0;
        String last = null;
        for (var row : report.rows()) {
            if (row.cell().label().equals(last)) {
                continue;
            }
            last = row.cell().label();
            cells++;
            if (!StoppingRule.settled(row.ratio(), precision)) {
                unsettled.add(row.cell().label());
            }
        }
        return "settled " + (cells - unsettled.size()) + " of " + cells + " cells"
                + (unsettled.isEmpty() ? "" : "; unsettled: " + String.join("; ", unsettled));
    }

    /**
     * A line when pairs were left out by the figures the measured forks took of themselves, because no machine record
     * of tools/compare-commits.sh lies beside the runs: a build that slows that canary has its pairs left out.
     */
    private static Optional<String> insideFlag(Comparer.Report report, List<Path> runs) throws BenchException {
        boolean leftOut = report.rows().stream().anyMatch(r -> r.paired() && r.pairs().disturbed() > 0);
        if (!leftOut || (MachineRecord.beside(runs.get(0)).isPresent() && MachineRecord.beside(runs.get(1)).isPresent())) {
            return Optional.empty();
        }
        return Optional.of("disturbed pairs: flagged by the canary and /proc readings inside the measured forks, as no "
                + MachineRecord.FILE + " (tools/compare-commits.sh's record, taken outside them) lies beside both runs;"
                + " a build that slows that canary has its pairs left out (--keep-disturbed keeps them)");
    }

    /** A line when the two runs' machines (canary, other processes) differ; empty for runs without those figures. */
    private static Optional<String> machineDifference(List<MeasuredCell> baseline, List<MeasuredCell> candidate) {
        Optional<MachineState> a = MachineState.of(baseline);
        Optional<MachineState> b = MachineState.of(candidate);
        return a.isPresent() && b.isPresent() ? MachineState.difference(a.get(), b.get()) : Optional.empty();
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

    /** A gated metric that no row has is a typo, not a pass. */
    private static void checkGateNames(Set<String> gate, Comparer.Report report) throws BenchException {
        Set<String> metrics = new LinkedHashSet<>();
        report.rows().forEach(r -> metrics.add(r.metric()));
        for (String name : gate) {
            if (!name.equals(Comparer.PRIMARY) && !metrics.contains(name)) {
                throw new BenchException("--gate names metric '" + name + "', which no cell of both runs has; expected "
                        + Comparer.PRIMARY + " or one of: " + String.join(", ", metrics));
            }
        }
    }

    /** 0.9975 as "99.75", 0.03 as "3" */
    private static String percent(double fraction) {
        return java.math.BigDecimal.valueOf(fraction * 100).round(new java.math.MathContext(6)).stripTrailingZeros()
                .toPlainString();
    }

    /** {@code --inconclusive fail|pass}: whether a gated row that could not tell fails the gate (exit 3) or passes. */
    private static boolean inconclusive(String v) throws BenchException {
        return switch (v) {
            case "pass" -> true;
            case "fail" -> false;
            default -> throw new BenchException("--inconclusive '" + v + "' is not a choice; expected fail (exit "
                    + Main.UNDECIDED + ", the default) or pass");
        };
    }

    private static int count(String v, String flag, int least) throws BenchException {
        try {
            int n = Integer.parseInt(v);
            if (n >= least) {
                return n;
            }
        } catch (NumberFormatException e) {
            // the message below says what was expected
        }
        throw new BenchException(flag + " '" + v + "' is not a whole number of at least " + least);
    }

    private static String value(List<String> args, int i, String flag) throws BenchException {
        if (i >= args.size()) {
            throw new BenchException(flag + " needs a value; expected: " + USAGE);
        }
        return args.get(i);
    }
}

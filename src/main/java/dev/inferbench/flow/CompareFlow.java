package dev.inferbench.flow;

import dev.inferbench.Numbers;
import dev.inferbench.AtomicFile;
import dev.inferbench.BenchException;
import dev.inferbench.ExitCode;
import dev.inferbench.compare.CellKey;
import dev.inferbench.compare.CellResults;
import dev.inferbench.compare.Comparer;
import dev.inferbench.compare.Comparison;
import dev.inferbench.compare.Gate;
import dev.inferbench.compare.MachineRecord;
import dev.inferbench.compare.Missing;
import dev.inferbench.compare.PilotRecord;
import dev.inferbench.compare.RunReader;
import dev.inferbench.compare.SideEngines;
import dev.inferbench.compare.StopAnswer;
import dev.inferbench.compare.TailShift;
import dev.inferbench.compare.Threshold;
import dev.inferbench.compare.Where;
import dev.inferbench.compare.WhereFrames;
import dev.inferbench.compare.WhereRuns;
import dev.inferbench.profile.FlameGraphs;
import dev.inferbench.profile.PassFrames;
import dev.inferbench.results.RunLayout;
import dev.inferbench.report.CompareHtml;
import dev.inferbench.report.CompareJson;
import dev.inferbench.report.CompareTable;
import dev.inferbench.report.TailTable;
import dev.inferbench.report.WhereTable;
import dev.inferbench.results.MachineState;
import dev.inferbench.results.jmh.MeasuredCell;
import dev.inferbench.stats.StoppingRule;
import dev.inferbench.stats.Verdict;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Two runs compared cell by cell and metric by metric, from the parsed flags of {@code compare} to its last line:
 * the table (or md, json, html), the notes under it (machine difference, disturbed pairs, thresholds, settled cells,
 * rows that could not tell, widened drift) and the gate's ending ({@link GateEnding}): {@link Ending#FAILED} on a
 * regression (with --fail-on-regression) or a failed threshold, {@link Ending#UNDECIDED} when a gated row could not
 * tell (with --fail-on-regression, unless inconclusive rows pass) or a gated cell or metric is measured on one side
 * only ({@link Missing}; {@link Ending#FAILED} where HEAD lost it and the request says so): "inconclusive" and "not
 * measured" are never a silent pass. {@link #stopAnswer} is the question an adaptive comparison of commits asks after
 * each pair, whose answer never depends on a verdict.
 */
public final class CompareFlow {
    /** The head run's folder (under {@code where/}) for the differential flame graphs of the passes. */
    static final String FLAMES_DIFF = "flames-diff";

    /**
     * {@code compare} as the command line asked for it, every flag parsed.
     *
     * @param runs               the two run folders (or JMH JSON result files), base first
     * @param minEffect          the smallest change that counts, a fraction
     * @param failOnRegression   whether a gated regression, a gated row that could not tell or a gated cell or
     *                           metric one side lacks fails the gate
     * @param inconclusivePasses whether a gated row that could not tell passes
     * @param lostFails          whether a gated cell or metric that BASE measured and HEAD lacks is a regression
     *                           (else it could not tell, as one that only HEAD has always is)
     * @param keepDisturbed      keep the pairs run while the machine was disturbed
     * @param unpaired           read the sides as run apart
     * @param gate               the metrics the gate covers
     * @param thresholds         absolute bounds on HEAD
     * @param precision          the precision of the settled line, NaN for none
     * @param format             table, md, json or html
     * @param allRows            every row in the table and md formats ({@code -v}), not only the gated ones and those
     *                           whose change is shown; json and html always hold every row
     */
    public record Request(List<Path> runs, double minEffect, boolean failOnRegression, boolean inconclusivePasses,
                          boolean lostFails, boolean keepDisturbed, boolean unpaired, Set<String> gate,
                          List<Threshold> thresholds, double precision, String format, boolean allRows) {
    }

    /** How the comparison ends, and the exit code each ending gives. */
    public enum Ending {
        /**
         * no gated regression, every threshold met, every gated cell and metric on both sides, no gated row left
         * undecided (or those allowed to pass)
         */
        PASS(ExitCode.OK),
        /**
         * a gated regression (with --fail-on-regression) or a failed threshold, or a gated cell or metric HEAD lost
         * (with --missing regression)
         */
        FAILED(ExitCode.FAILED),
        /**
         * a gated row could not tell (with --fail-on-regression, unless inconclusive rows pass), or a gated cell or
         * metric has no row as one side lacks it (with --fail-on-regression)
         */
        UNDECIDED(ExitCode.UNDECIDED);

        private final int exitCode;

        Ending(int exitCode) {
            this.exitCode = exitCode;
        }

        public int exitCode() {
            return exitCode;
        }
    }

    private final PrintStream out;
    private final PrintStream err;

    public CompareFlow(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** The two runs of {@code request} read and compared, with their readers (the gate checks HEAD's cells). */
    private record Read(List<MeasuredCell> baseCells, List<MeasuredCell> candidateCells, List<CellResults> baseline,
                        List<CellResults> candidate, Comparer.Report report) {
    }

    private static Read read(Request request) throws BenchException {
        List<Path> runs = request.runs();
        List<MeasuredCell> baseCells = RunReader.readCells(runs.get(0));
        List<MeasuredCell> candidateCells = RunReader.readCells(runs.get(1));
        // --unpaired reads the sides as if they had been run apart: what pairing buys, on the same forks
        var candidate = request.unpaired() ? RunReader.of(candidateCells) : RunReader.of(candidateCells, runs.get(1));
        var baseline = request.unpaired() ? RunReader.of(baseCells) : RunReader.of(baseCells, runs.get(0));
        Comparer.Report report = Comparer.compare(baseline, candidate, request.minEffect(), Verdict.CONFIDENCE,
                request.gate(), request.keepDisturbed(), PilotRecord.beside(runs.get(0), runs.get(1)),
                request.precision());
        checkGateNames(request.gate(), report);
        return new Read(baseCells, candidateCells, baseline, candidate, report);
    }

    /**
     * Whether a comparison whose pilot is {@code pilot} pairs may stop at {@code request}'s precision, asked after a
     * pair ({@link StopAnswer}): its answer never depends on a verdict.
     */
    public static StopAnswer stopAnswer(Request request, int pilot, int maxPairs) throws BenchException {
        return StopAnswer.of(read(request).report(), request.precision(), pilot, maxPairs);
    }

    public Ending compare(Request request) throws BenchException {
        List<Path> runs = request.runs();
        Set<String> gate = request.gate();
        List<Threshold> thresholds = request.thresholds();
        double precision = request.precision();
        String format = request.format();
        Read read = read(request);
        List<MeasuredCell> baseCells = read.baseCells();
        List<MeasuredCell> candidateCells = read.candidateCells();
        var candidate = read.candidate();
        Comparer.Report report = read.report();
        List<Gate.Check> checks = Gate.check(thresholds, candidate);
        Map<CellKey, Where> where = flameDiffs(WhereRuns.of(runs.get(0), runs.get(1), report), runs.get(1), report);
        SideEngines engines = SideEngines.of(runs.get(0), runs.get(1));
        switch (format) {
            case "md" -> out.print(CompareTable.markdown(report, request.allRows()));
            case "json" -> {
                try {
                    CompareJson.write(report, where, engines, out);
                } catch (IOException e) {
                    throw new BenchException("cannot write JSON: " + e.getMessage(), e);
                }
            }
            case "html" -> {
                Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8);
                CompareHtml.write(report, runs.get(0).toString(), runs.get(1).toString(), where, w);
            }
            default -> out.print(CompareTable.text(report, request.allRows()));
        }
        PrintStream notes = format.equals("json") || format.equals("html") ? err : out;
        if (engines.differ()) {
            notes.println(engines.line()); // first under the table: an engine upgrade is what the ratio measures
        }
        report.rows().stream().filter(r -> notes == out && WhereTable.shown(r) && where.containsKey(r.cell()))
                .forEach(r -> out.print(WhereTable.text(r.cell().label(CompareTable.varying(report)),
                        where.get(r.cell()))));
        // one line per --tail cell, whichever cause moved: the table's tail.* rows say each share apart
        for (TailShift t : TailShift.of(read.baseline(), candidate, report)) {
            String line = TailTable.compareLine(t, t.cell().label(CompareTable.varying(report)));
            if (line != null) {
                notes.println(line);
            }
        }
        machineDifference(baseCells, candidateCells).ifPresent(notes::println);
        insideFlag(report, runs).ifPresent(notes::println);
        checks.forEach(c -> notes.println("threshold " + c.line()));
        if (!Double.isNaN(precision)) {
            notes.println(settled(report, precision));
        }
        boolean turns = baseCells.stream().anyMatch(MeasuredCell::tookTurns)
                && candidateCells.stream().anyMatch(MeasuredCell::tookTurns);
        // turns already as short as statistics.md's "Microsecond cells" asks: the hint cannot ask for them again
        boolean shortTurns = turns && java.util.stream.Stream.concat(baseCells.stream(), candidateCells.stream())
                .allMatch(c -> c.iterationSeconds() <= GateEnding.SHORT_TURN_SECONDS);
        List<String> undecided = report.undecided().stream()
                .map(r -> GateEnding.couldNotTell(r, r.cell().label(CompareTable.varying(report)), turns, shortTurns))
                .toList();
        List<Comparison> tooFew = report.undecided().stream().filter(CompareTable::tooFewForks).toList();
        if (tooFew.size() > 1) {
            // the table says it on each cell's line; one line here says what to do, not one per cell
            notes.println("could not tell in " + tooFew.size() + " rows: too few forks for an interval (the table's"
                    + " verdicts); " + GateEnding.MORE_FORKS);
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
        return GateEnding.of(request, report, checks, undecided.size(), notes);
    }

    /**
     * Each where table with cpu samples on both sides gets the differential flame graph of its passes, drawn into the
     * head run's {@code where/flames-diff/<cell-id>.html}; a graph that cannot be written is a line on stderr, and the
     * table goes on without it.
     */
    private Map<CellKey, Where> flameDiffs(Map<CellKey, Where> where, Path headRun, Comparer.Report report) {
        Map<CellKey, Where> out = new LinkedHashMap<>();
        for (Map.Entry<CellKey, Where> e : where.entrySet()) {
            Where w = e.getValue();
            WhereFrames f = w.frames();
            if (f == null || f.baseStacks().isEmpty() || f.headStacks().isEmpty()) {
                out.put(e.getKey(), w);
                continue;
            }
            String name = f.headStacks().get(0).getFileName().toString();
            Path html = RunLayout.of(headRun).where().resolve(FLAMES_DIFF)
                    .resolve(name.substring(0, name.length() - PassFrames.STACKS_SUFFIX.length()) + ".html");
            String title = e.getKey().label(CompareTable.varying(report)) + ": cpu samples of " + f.headStacks().size()
                    + " operator passes, head against base (red: hotter in head)";
            try {
                Files.createDirectories(html.getParent());
                AtomicFile.write(html, o -> FlameGraphs.diff(f.baseStacks(), f.headStacks(), title, o));
                out.put(e.getKey(), w.withFrames(f.withFlameDiff(html)));
            } catch (IOException | BenchException ex) {
                err.println("inferbench: no differential flame graph for " + e.getKey().label(CompareTable.varying(report))
                        + ": cannot write " + html + ": " + ex.getMessage());
                out.put(e.getKey(), w);
            }
        }
        return out;
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
     * of compare-commits lies beside the runs: a build that slows that canary has its pairs left out.
     */
    private static Optional<String> insideFlag(Comparer.Report report, List<Path> runs) throws BenchException {
        boolean leftOut = report.rows().stream().anyMatch(r -> r.paired() && r.pairs().disturbed() > 0);
        if (!leftOut || (MachineRecord.beside(runs.get(0)).isPresent() && MachineRecord.beside(runs.get(1)).isPresent())) {
            return Optional.empty();
        }
        return Optional.of("disturbed pairs: flagged by the canary and /proc readings inside the measured forks, as no "
                + MachineRecord.FILE + " (compare-commits's record, taken outside them) lies beside both runs;"
                + " a build that slows that canary has its pairs left out (--keep-disturbed keeps them)");
    }

    /** A line when the two runs' machines (canary, other processes) differ; empty for runs without those figures. */
    private static Optional<String> machineDifference(List<MeasuredCell> baseline, List<MeasuredCell> candidate) {
        Optional<MachineState> a = MachineState.of(baseline);
        Optional<MachineState> b = MachineState.of(candidate);
        return a.isPresent() && b.isPresent() ? MachineState.difference(a.get(), b.get()) : Optional.empty();
    }

    /**
     * A gated metric that no row has is a typo, not a pass; one that only one side has is missing on the other, and
     * the gate could not tell.
     */
    private static void checkGateNames(Set<String> gate, Comparer.Report report) throws BenchException {
        Set<String> metrics = new LinkedHashSet<>();
        report.rows().forEach(r -> metrics.add(r.metric()));
        report.missing().stream().filter(m -> !m.wholeCell()).forEach(m -> metrics.add(m.metric()));
        for (String name : gate) {
            if (!name.equals(Comparer.PRIMARY) && !metrics.contains(name)) {
                throw new BenchException("--gate names metric '" + name + "', which no cell of both runs has; expected "
                        + Comparer.PRIMARY + " or one of: " + String.join(", ", metrics));
            }
        }
    }

    /** 0.9975 as "99.75", 0.03 as "3" */
    public static String percent(double fraction) {
        return Numbers.percentText(fraction);
    }
}

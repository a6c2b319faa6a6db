package dev.inferbench.flow;

import dev.inferbench.run.ChildJvm;
import dev.inferbench.AtomicFile;
import dev.inferbench.BenchException;
import dev.inferbench.cell.Cell;
import dev.inferbench.compare.Gate;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.prepare.JmhOptions;
import dev.inferbench.prepare.RunSetup;
import dev.inferbench.profile.ActivationPass;
import dev.inferbench.profile.OpProfilePass;
import dev.inferbench.report.Reports;
import dev.inferbench.report.SummaryTable;
import dev.inferbench.report.TailTable;
import dev.inferbench.results.CallFigures;
import dev.inferbench.results.CellSummary;
import dev.inferbench.results.Headline;
import dev.inferbench.results.History;
import dev.inferbench.results.MachineState;
import dev.inferbench.results.RunInfo;
import dev.inferbench.results.RunLayout;
import dev.inferbench.results.jmh.MeasuredCell;
import dev.inferbench.run.JmhResultWriter;
import dev.inferbench.run.Plan;
import dev.inferbench.run.RunConsole;
import dev.inferbench.run.RunLoop;
import dev.inferbench.stats.Percentiles;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.CommandLineOptions;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Everything after a run's last fork, in order: JMH's table and inferbench's summary (with the machine state, the
 * skipped and the failed cells), the -rff copy, run.properties, the operator profile and activation passes, the
 * report, the history, the closing lines and the threshold gate.
 */
public final class AfterRun {
    /** What the run came to; {@link #ok()} when no cell failed and the gate passed. */
    public record Ending(int measured, int failed, int skipped, boolean gatePassed) {
        public boolean ok() {
            return failed == 0 && gatePassed;
        }
    }

    /** Flame graphs named one by one in the closing lines; more are named by their folder. */
    private static final int MAX_FLAMES = 4;

    private final RunSetup.Prepared prepared;
    private final Path runDir;
    private final Plan plan;
    private final PrintStream console;
    private final PrintStream err;

    /** {@code --run-dir}: the user chose the run's folder, and its history goes beside it. */
    private final boolean chosenDir;

    AfterRun(RunSetup.Prepared prepared, PrintStream console, PrintStream err, boolean chosenDir) {
        this.chosenDir = chosenDir;
        this.prepared = prepared;
        this.runDir = prepared.store().dir();
        this.plan = prepared.plan();
        this.console = console;
        this.err = err;
    }

    /** A pass of native code over the run's cells, in a JVM of its own: its crash costs the pass, not the run. */
    private void inChild(String step, Path dir, String what) throws BenchException {
        ChildJvm.run(ChildJvm.Request.of(step, plan.runnableCells(), prepared.config(), dir), what,
                RunLayout.of(runDir).crashes(), console);
    }

    Ending finish(RunLoop.Outcome outcome, RunInfo info, RunConsole out, List<String> thresholds, double[] percentiles,
                  boolean opProfile) throws IOException, BenchException {
        if (!outcome.results().isEmpty()) {
            // JMH's own table of every metric: in jmh.log, and on the terminal only when JMH's log is shown there
            OutputFormatFactory.createFormatInstance(out.log(), out.jmh()).endRun(outcome.results());
            out.log().flush();
            if (out.showsJmh()) {
                OutputFormatFactory.createFormatInstance(console, out.jmh()).endRun(outcome.results());
            }
        }
        List<MeasuredCell> measured = prepared.store().result().read();
        // every figure after the run is each cell's quiet forks; the machine's line names every fork
        Headline headline = Headline.of(measured, plan.keepDisturbed(), plan.forks());
        List<CellSummary> cells = CellSummary.of(headline.cells(), percentiles);
        Map<Cell, String> failed = prepared.store().failures().reasons(plan.runnableCells());
        summary(measured, headline, cells, failed);
        resultCopy(outcome);
        info.finish(runDir, cells.size(), failed.size(), plan.skipped().size());
        if (opProfile) {
            // after every timed fork, so that ORT's profiling cannot distort one; before the report that shows it
            inChild(OpProfilePass.STEP, runDir, "the ORT operator profile");
        }
        if (!cells.isEmpty()) {
            // pure Java (the graph read without its weights): no engine, so no JVM of its own
            ActivationPass.run(plan.runnableCells(), prepared.config(), runDir, console);
            report(percentiles);
            if (plan.shardSlice().isWhole() && outcome.forksRemaining() == 0) {
                // a slice or an unfinished run is not a point of the trend; merge files the joined shards
                Optional<Path> configured = History.root(prepared.config());
                Optional<Path> root = chosenDir ? historyBeside(prepared.config(), runDir) : configured;
                addToHistory(root, runDir, !root.map(Path::normalize).equals(configured.map(Path::normalize)), console,
                        err);
            }
        }
        for (Map.Entry<Cell, String> f : failed.entrySet()) {
            err.println("inferbench: cell " + f.getKey().label() + " failed: " + f.getValue()
                    + " (details in " + RunLayout.of(runDir).cellFailures(f.getKey().id()) + ")");
        }
        where(out);
        if (outcome.forksRemaining() > 0) {
            console.println("inferbench: " + outcome.forksRemaining() + " forks not run yet; continue with: "
                    + prepared.store().resumeCommand());
        }
        console.println("inferbench: " + cells.size() + " cell" + (cells.size() == 1 ? "" : "s") + " measured, "
                + failed.size() + " failed, " + plan.skipped().size() + " skipped; results in " + runDir);
        boolean gatePassed = thresholds.isEmpty() || Gate.afterRun(runDir, thresholds, console) == 0;
        return new Ending(cells.size(), failed.size(), plan.skipped().size(), gatePassed);
    }

    /**
     * The closing lines' "where": each cell's merged flame graphs, one per event with the time event's first (the
     * first few, then the folder), the operator profiles and JMH's log, each named only when it is there.
     */
    private void where(RunConsole out) throws IOException {
        RunLayout layout = RunLayout.of(runDir);
        List<Path> flames = new ArrayList<>();
        if (Files.isDirectory(layout.flames())) {
            try (Stream<Path> cellDirs = Files.list(layout.flames())) {
                for (Path dir : cellDirs.sorted().toList()) {
                    try (Stream<Path> files = Files.list(dir)) {
                        files.filter(f -> f.getFileName().toString().matches("merged-.*-forward\\.html"))
                                .sorted(Comparator.comparing((Path f) -> !f.getFileName().toString()
                                        .startsWith("merged-cpu-")).thenComparing(Path::toString))
                                .forEach(flames::add);
                    }
                }
            }
        }
        int shown = Math.min(flames.size(), flames.size() > MAX_FLAMES ? MAX_FLAMES - 1 : MAX_FLAMES);
        flames.subList(0, shown).forEach(f -> console.println("inferbench: flame graph, forks merged: " + f));
        if (flames.size() > shown) {
            console.println("inferbench: " + (flames.size() - shown) + " more flame graphs in " + layout.flames()
                    + " (<cell>/merged-*-forward.html)");
        }
        if (Files.isDirectory(layout.opProfile())) {
            console.println("inferbench: operator profiles in " + layout.opProfile() + " (one folder per cell)");
        }
        if (Files.isRegularFile(runDir.resolve(RunConsole.JMH_LOG))) {
            console.println("inferbench: JMH's log of every fork in " + runDir.resolve(RunConsole.JMH_LOG)
                    + (out.quiet() ? " (shown as it runs with -v NORMAL)" : ""));
        }
    }

    /** The summary table with the skipped cells, the machine's state and the failed cells, printed and kept. */
    private void summary(List<MeasuredCell> measured, Headline headline, List<CellSummary> cells,
                         Map<Cell, String> failed) throws IOException {
        String table = SummaryTable.render(cells);
        StringBuilder extra = new StringBuilder();
        for (Plan.Skipped s : plan.skipped()) {
            extra.append("skipped ").append(s.cell().label()).append(": ").append(s.reason()).append('\n');
        }
        MachineState.of(measured).ifPresent(m -> extra.append(m.line()).append('\n'));
        headline.line().ifPresent(l -> extra.append(l).append('\n'));
        failed.forEach((cell, why) -> extra.append("failed  ").append(cell.label()).append(": ").append(why).append('\n'));
        TailTable.lines(cells).forEach(l -> extra.append(l).append('\n'));
        TailTable.write(runDir, cells);
        console.println();
        console.println("inferbench summary (times per call in each model's unit; 95% CI of the mean with forks as"
                + " the unit):");
        console.print(table);
        console.print(extra);
        AtomicFile.write(runDir.resolve(RunLayout.SUMMARY), (table + extra).getBytes(StandardCharsets.UTF_8));
    }

    /** {@code -rff FILE}: a copy of the result in the format of {@code -rf}, beside the run folder's own. */
    private void resultCopy(RunLoop.Outcome outcome) {
        CommandLineOptions cmd = prepared.cmd();
        if (!cmd.getResult().hasValue()) {
            return;
        }
        try {
            JmhResultWriter.writeAs(JmhOptions.resultFormat(cmd), outcome.results(), Path.of(cmd.getResult().get()));
            console.println("inferbench: " + JmhOptions.resultFormat(cmd) + " result also in " + cmd.getResult().get());
        } catch (IOException e) {
            // the results are in the run folder: a copy that cannot be written costs a line, not the run's end
            err.println("inferbench: the -rff copy " + cmd.getResult().get() + " was not written ("
                    + e + "); the results are in " + runDir.resolve(RunLayout.RESULT));
        }
    }

    /** The report of what landed; a failure to write it costs no measurement (they are on disk already). */
    private void report(double[] percentiles) {
        try {
            Path report = Reports.writeAll(runDir, percentiles);
            console.println("inferbench: report in " + report.resolve("report.html") + " (also .md, .csv, plots, exports)");
        } catch (BenchException e) {
            err.println("inferbench: the report was not written: " + e.getMessage() + "; make it later with: "
                    + "java -jar target/benchmarks.jar report " + runDir + (CallFigures.isDefault(percentiles) ? ""
                    : " --percentiles " + Percentiles.listText(percentiles)));
        }
    }

    /**
     * Files a finished run in the history folder ({@code run.history}, default results/history; empty: off). A
     * failure costs no measurement: one line on stderr.
     */
    static void addToHistory(BenchConfig config, Path runDir, PrintStream out, PrintStream err) {
        addToHistory(History.root(config), runDir, false, out, err);
    }

    /**
     * A run in a folder of the user's choosing ({@code --run-dir}) keeps its history beside it, in the folder's
     * parent: a run made elsewhere leaves nothing in the checkout's results/ (run.history empty: none at all).
     */
    static Optional<Path> historyBeside(BenchConfig config, Path runDir) {
        Path parent = runDir.normalize().getParent();
        return History.root(config).map(configured -> parent == null ? Path.of("history") : parent.resolve("history"));
    }

    static void addToHistory(Optional<Path> root, Path runDir, boolean beside, PrintStream out, PrintStream err) {
        if (root.isEmpty()) {
            return;
        }
        try {
            Path entry = History.append(runDir, root.get());
            if (entry != null) {
                out.println("inferbench: run added to the history in " + entry + (beside
                        ? " (beside the --run-dir folder; its trend: java -jar target/benchmarks.jar history "
                        + root.get() + ")" : ""));
            }
        } catch (BenchException e) {
            err.println("inferbench: " + e.getMessage());
        }
    }
}

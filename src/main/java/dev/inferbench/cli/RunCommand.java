package dev.inferbench.cli;

import dev.inferbench.results.MachineState;
import dev.inferbench.results.jmh.MeasuredCell;
import dev.inferbench.cell.CellSpec;
import java.util.TreeMap;
import java.util.ArrayList;
import java.nio.file.StandardOpenOption;
import dev.inferbench.prepare.JmhOptions;
import dev.inferbench.prepare.RunSetup;
import dev.inferbench.results.RunLayout;
import dev.inferbench.BenchException;
import dev.inferbench.compare.Gate;
import dev.inferbench.report.Reports;
import dev.inferbench.report.SummaryTable;
import dev.inferbench.results.CellSummary;
import dev.inferbench.results.Fingerprint;
import dev.inferbench.results.RunInfo;
import dev.inferbench.profile.FlameHook;
import dev.inferbench.profile.ActivationPass;
import dev.inferbench.profile.OpProfilePass;
import dev.inferbench.profile.UserAsyncHook;
import dev.inferbench.cell.Cell;
import dev.inferbench.run.ForkHook;
import dev.inferbench.run.Plan;
import dev.inferbench.run.RunLoop;
import dev.inferbench.run.JmhResultWriter;
import dev.inferbench.run.RunStoppedException;
import org.openjdk.jmh.runner.Defaults;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;

/**
 * A benchmark run: plan the matrix (or read the plan of the run being resumed), drive the run loop, then print
 * JMH's table and inferbench's summary and list what was skipped and what failed.
 */
final class RunCommand {
    private final PrintStream out;
    private final PrintStream err;
    private final boolean verbose;

    RunCommand(PrintStream out, PrintStream err, boolean verbose) {
        this.out = out;
        this.err = err;
        this.verbose = verbose;
    }

    int run(RunFlags flags, String[] argv) throws BenchException, IOException, RunStoppedException {
        RunSetup.Prepared prepared = flags.resume() != null ? RunSetup.resume(flags.resume(), flags.jmhArgs(), out)
                : RunSetup.create(flags.jmhArgs(), flags.runDir(), flags.shard(), flags.cells(), LocalDateTime.now(), out);
        Fingerprint.write(prepared.store().dir(), modelFiles(prepared));
        CommandLineOptions cmd = prepared.cmd();
        // JMH honours -o only in Runner(Options); with our own output format it is ours to open.
        PrintStream console = cmd.getOutput().hasValue()
                ? new PrintStream(Files.newOutputStream(Path.of(cmd.getOutput().get()), StandardOpenOption.CREATE,
                        flags.resume() != null ? StandardOpenOption.APPEND : StandardOpenOption.TRUNCATE_EXISTING,
                        StandardOpenOption.WRITE), true, StandardCharsets.UTF_8)
                : out;
        try {
            RunInfo info = RunInfo.start(argv, prepared.config());
            VerboseMode verbosity = cmd.verbosity().orElse(Defaults.VERBOSITY);
            List<ForkHook> hooks = hooks(flags, prepared, console);
            RunLoop loop = new RunLoop(prepared.store(), prepared.plan(), prepared.options(), flags.loop(), hooks,
                    console, verbosity, verbose);
            RunLoop.Outcome outcome = loop.run();
            return report(prepared, outcome, info, console, verbosity, flags.thresholds(),
                    flags.opProfile() || flags.flame() != null);
        } finally {
            if (console != out) {
                console.close();
            }
        }
    }

    /** The profilers of every fork: {@code --flame}, and the user's own {@code -prof async[:...]}. */
    private List<ForkHook> hooks(RunFlags flags, RunSetup.Prepared prepared, PrintStream console) throws BenchException {
        List<ForkHook> hooks = new ArrayList<>();
        Path runDir = prepared.store().dir();
        try {
            if (flags.flame() != null) {
                hooks.add(FlameHook.create(runDir, flags.flame(), prepared.options(), console));
            }
            if (prepared.asyncOptions() != null) {
                hooks.add(UserAsyncHook.create(prepared.asyncOptions(), runDir, prepared.options(), console));
            }
        } catch (BenchException e) {
            if (!flags.flameOptional()) {
                throw e;
            }
            err.println("inferbench: measuring without flame graphs (--flame-optional): " + e.getMessage());
            hooks.clear();
        }
        return hooks;
    }

    private int report(RunSetup.Prepared prepared, RunLoop.Outcome outcome, RunInfo info, PrintStream console,
                       VerboseMode verbosity, List<String> thresholds, boolean opProfile)
            throws IOException, BenchException {
        Path runDir = prepared.store().dir();
        Plan plan = prepared.plan();
        if (!outcome.results().isEmpty()) {
            OutputFormatFactory.createFormatInstance(console, verbosity).endRun(outcome.results());
        }
        List<MeasuredCell> jmhCells = prepared.store().result().read();
        List<CellSummary> cells = CellSummary.of(jmhCells);
        String table = SummaryTable.render(cells);
        StringBuilder extra = new StringBuilder();
        for (Plan.Skipped s : plan.skipped()) {
            extra.append("skipped ").append(s.cell().label()).append(": ").append(s.reason()).append('\n');
        }
        MachineState.of(jmhCells).ifPresent(m -> extra.append(m.line()).append('\n'));
        Map<Cell, String> failed = prepared.store().failures().reasons(plan.runnableCells());
        failed.forEach((cell, why) -> extra.append("failed  ").append(cell.label()).append(": ").append(why).append('\n'));
        console.println();
        console.println("inferbench summary (times per call in each model's unit; 95% CI of the mean with forks as"
                + " the unit):");
        console.print(table);
        console.print(extra);
        Files.writeString(runDir.resolve(RunLayout.SUMMARY), table + extra, StandardCharsets.UTF_8);
        if (prepared.cmd().getResult().hasValue()) {
            try {
                JmhResultWriter.writeAs(JmhOptions.resultFormat(prepared.cmd()), outcome.results(), Path.of(prepared.cmd().getResult().get()));
                console.println("inferbench: " + JmhOptions.resultFormat(prepared.cmd()) + " result also in " + prepared.cmd().getResult().get());
            } catch (IOException e) {
                // the results are in the run folder: a copy that cannot be written costs a line, not the run's end
                err.println("inferbench: the -rff copy " + prepared.cmd().getResult().get() + " was not written ("
                        + e + "); the results are in " + runDir.resolve(RunLayout.RESULT));
            }
        }
        info.finish(runDir, cells.size(), failed.size(), plan.skipped().size());
        if (opProfile) {
            // after every timed fork, so that ORT's profiling cannot distort one; before the report that shows it
            OpProfilePass.run(plan.runnableCells(), prepared.config(), runDir, console);
        }
        if (!cells.isEmpty()) {
            ActivationPass.run(plan.runnableCells(), prepared.config(), runDir, console);
            writeReport(runDir, console);
            if (plan.shardSlice().isWhole() && outcome.forksRemaining() == 0) {
                // a slice or an unfinished run is not a point of the trend; merge files the joined shards
                HistoryCommand.appendToHistory(prepared.config(), runDir, console, err);
            }
        }
        for (Map.Entry<Cell, String> f : failed.entrySet()) {
            err.println("inferbench: cell " + f.getKey().label() + " failed: " + f.getValue()
                    + " (details in " + RunLayout.of(runDir).cellFailures(f.getKey().id()) + ")");
        }
        if (outcome.forksRemaining() > 0) {
            console.println("inferbench: " + outcome.forksRemaining() + " forks not run yet; continue with: "
                    + "java -jar target/benchmarks.jar --resume " + runDir);
        }
        console.println("inferbench: " + cells.size() + " cell" + (cells.size() == 1 ? "" : "s") + " measured, "
                + failed.size() + " failed, " + plan.skipped().size() + " skipped; results in " + runDir);
        int gate = thresholds.isEmpty() ? Main.OK : Gate.afterRun(runDir, thresholds, console);
        return failed.isEmpty() && gate == Main.OK ? Main.OK : Main.CELLS_FAILED;
    }

    /** The report of what landed; a failure to write it costs no measurement (they are on disk already). */
    private void writeReport(Path runDir, PrintStream console) {
        try {
            Path report = Reports.writeAll(runDir);
            console.println("inferbench: report in " + report.resolve("report.html") + " (also .md, .csv, plots, exports)");
        } catch (BenchException e) {
            err.println("inferbench: the report was not written: " + e.getMessage() + "; make it later with: "
                    + "java -jar target/benchmarks.jar report " + runDir);
        }
    }

    /** The registered files of the models the plan measures, for their digests in environment.json. */
    private static Map<String, Path> modelFiles(RunSetup.Prepared prepared) {
        Map<String, Path> files = new TreeMap<>();
        for (Cell cell : prepared.plan().cells()) {
            String model = cell.params().get(CellSpec.MODEL);
            if (model != null && prepared.config().models().containsKey(model)) {
                files.put(model, prepared.config().models().get(model).file());
            }
        }
        return files;
    }
}

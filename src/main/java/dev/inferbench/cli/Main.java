package dev.inferbench.cli;

import dev.inferbench.BenchException;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.report.SummaryTable;
import dev.inferbench.results.CellSummary;
import dev.inferbench.results.RunFolder;
import dev.inferbench.results.RunInfo;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Defaults;
import org.openjdk.jmh.runner.NoBenchmarksException;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The jar's entry point. Without a subcommand it is JMH's command line (every JMH option works unchanged) with
 * inferbench's defaults from benchmarks.properties, zoo models generated before the first fork, the JSON result in
 * a new run folder, and a summary table at the end. {@code --verbose} shows stack traces.
 *
 * <p>Exit codes: 0 all cells measured, 1 some cells failed (the others are kept), 2 bad input before any run.
 */
public final class Main {
    static final int OK = 0;
    static final int CELLS_FAILED = 1;
    static final int BAD_INPUT = 2;

    /**
     * Subcommands by name, in the order the help lists them. Each is one class; add a line here to add one.
     * A first argument not named here goes to JMH.
     */
    static final Map<String, Supplier<Subcommand>> SUBCOMMANDS = new LinkedHashMap<>();

    static {
    }

    private final PrintStream out;
    private final PrintStream err;

    Main(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        System.exit(new Main(System.out, System.err).run(args));
    }

    int run(String[] argv) {
        List<String> args = new ArrayList<>(Arrays.asList(argv));
        boolean verbose = args.remove("--verbose");
        try {
            if (!args.isEmpty() && SUBCOMMANDS.containsKey(args.get(0))) {
                Subcommand command = SUBCOMMANDS.get(args.get(0)).get();
                return command.run(List.copyOf(args.subList(1, args.size())), out, err);
            }
            CommandLineOptions cmd;
            try {
                cmd = new CommandLineOptions(args.toArray(String[]::new));
            } catch (CommandLineOptionException e) {
                throw new BenchException("bad command line: " + e.getMessage() + "; see -h for the options", e);
            }
            if (cmd.shouldHelp()) {
                cmd.showHelp();
                out.println();
                out.println("inferbench adds: --verbose (stack traces); defaults from " + BenchConfig.FILE_NAME
                        + "; results in results/<time>-<sha>/ unless -rff is given.");
                SUBCOMMANDS.forEach((name, command) -> out.println("  " + name + ": " + command.get().summary()));
                return OK;
            }
            if (cmd.shouldList() || cmd.shouldListWithParams() || cmd.shouldListProfilers()
                    || cmd.shouldListResultFormats()) {
                return list(cmd, args);
            }
            return launch(cmd, verbose, argv);
        } catch (BenchException e) {
            return fail(e, BAD_INPUT, verbose);
        } catch (IOException | RunnerException | RuntimeException e) {
            return fail(e, CELLS_FAILED, verbose);
        }
    }

    private int fail(Exception e, int code, boolean verbose) {
        String message = e instanceof BenchException || e.getMessage() == null ? String.valueOf(e.getMessage()) : e.toString();
        err.println("inferbench: " + message.strip().lines().findFirst().orElse(""));
        if (verbose) {
            e.printStackTrace(err);
        }
        return code;
    }

    private int list(CommandLineOptions cmd, List<String> args) throws BenchException {
        Runner runner = new Runner(cmd);
        if (cmd.shouldList()) {
            runner.list();
        } else if (cmd.shouldListWithParams()) {
            runner.listWithParams(withConfigParams(cmd, args, BenchConfig.load()));
        } else if (cmd.shouldListProfilers()) {
            cmd.listProfilers();
        } else {
            cmd.listResultFormats();
        }
        return OK;
    }

    /** -lp shows the matrix a run would use: JMH's listing knows only -p, so the defaults become -p options. */
    private static CommandLineOptions withConfigParams(CommandLineOptions cmd, List<String> args, BenchConfig config)
            throws BenchException {
        List<String> all = new ArrayList<>(args);
        for (String param : config.defaultParamNames()) {
            if (!cmd.getParameter(param).hasValue()) {
                all.add("-p");
                all.add(param + "=" + String.join(",", config.defaultParam(param)));
            }
        }
        try {
            return new CommandLineOptions(all.toArray(String[]::new));
        } catch (CommandLineOptionException e) {
            throw new BenchException("bad value in " + config.source() + ": " + e.getMessage(), e);
        }
    }

    private int launch(CommandLineOptions cmd, boolean verbose, String[] argv)
            throws BenchException, IOException, RunnerException {
        BenchConfig config = BenchConfig.load();
        MatrixCheck.prepare(Launcher.options(cmd, config, null).build(), config, out);

        Path runDir = null;
        Path resultFile = null;
        if (!cmd.getResult().hasValue()) {
            runDir = RunFolder.create(Launcher.resultsRoot(config), LocalDateTime.now());
            resultFile = runDir.resolve(Launcher.resultFileName(cmd));
        }
        Options options = Launcher.options(cmd, config, resultFile).build();
        // JMH honours -o only in Runner(Options); with our own output format it is ours to open.
        PrintStream console = cmd.getOutput().hasValue()
                ? new PrintStream(Files.newOutputStream(Path.of(cmd.getOutput().get())), true, StandardCharsets.UTF_8)
                : out;
        try {
            return measure(options, cmd, verbose, RunInfo.start(argv, config), runDir, console);
        } catch (NoBenchmarksException e) {
            RunFolder.deleteIfEmpty(runDir);
            throw new BenchException("no benchmark matches " + options.getIncludes() + "; see -l for the list", e);
        } catch (RunnerException | RuntimeException e) {
            RunFolder.deleteIfEmpty(runDir);
            throw e;
        } finally {
            if (console != out) {
                console.close();
            }
        }
    }

    private int measure(Options options, CommandLineOptions cmd, boolean verbose, RunInfo info, Path runDir,
                        PrintStream console) throws RunnerException, IOException {
        FailureFilter jmhOutput = new FailureFilter(OutputFormatFactory.createFormatInstance(console,
                cmd.verbosity().orElse(Defaults.VERBOSITY)), verbose);
        Collection<RunResult> results = new Runner(options, jmhOutput).run();

        List<CellSummary> cells = results.stream().map(CellSummary::of).toList();
        String table = SummaryTable.render(cells);
        console.println();
        console.println("inferbench summary (times in " + (cells.isEmpty() ? "ms" : cells.get(0).unit())
                + "; CI from per-iteration means across forks):");
        console.print(table);
        List<FailureFilter.Failure> failures = jmhOutput.failures();
        for (FailureFilter.Failure f : failures) {
            err.println("inferbench: cell " + f.params() + " failed: " + f.reason());
        }
        if (runDir != null) {
            Files.writeString(runDir.resolve(RunFolder.SUMMARY), table, StandardCharsets.UTF_8);
            info.finish(runDir, cells.size(), failures.size());
            console.println("inferbench: results in " + runDir);
        }
        return failures.isEmpty() ? OK : CELLS_FAILED;
    }
}

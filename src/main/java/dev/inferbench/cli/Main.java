package dev.inferbench.cli;

import dev.inferbench.prepare.JmhArgs;
import dev.inferbench.BenchException;
import dev.inferbench.ExitCode;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.results.BuildInfo;
import dev.inferbench.run.JmhDriver;
import dev.inferbench.run.RunStoppedException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.Supplier;

/**
 * The jar's entry point. Without a subcommand it is JMH's command line (every JMH option works unchanged) with
 * inferbench's defaults from benchmarks.properties, zoo models generated before the first fork, the JSON result in
 * a new run folder, and a summary table at the end. {@code --verbose} shows stack traces.
 *
 * <p>Exit codes ({@link ExitCode}): 0 all cells measured (skipped cells are not failures), 1 some cells failed (the others are kept),
 * 2 bad input before any run, 3 a comparison that could not tell ({@code compare --fail-on-regression}), 4 an
 * internal error or an unexpected failure (a bug, a {@link Error}: never a verdict, so CI can tell a crash from a
 * slowdown), 5 a file or folder that could not be written or read (a full disk, no permission, a path through a
 * file): the machine's fault, neither the input's nor the code measured's. {@code --version} prints the build.
 */
public final class Main {

    /**
     * Subcommands by name, in the order the help lists them. Each is one class; add a line here to add one.
     * A first argument not named here goes to JMH.
     */
    static final Map<String, Supplier<Subcommand>> SUBCOMMANDS = new LinkedHashMap<>();

    static {
        SUBCOMMANDS.put("merge", MergeCommand::new);
        SUBCOMMANDS.put("variance", VarianceCommand::new);
        SUBCOMMANDS.put("compare", CompareCommand::new);
        SUBCOMMANDS.put("compare-commits", CompareCommitsCommand::new);
        SUBCOMMANDS.put("flame", FlameCommand::new);
        SUBCOMMANDS.put("models", ModelsCommand::new);
        SUBCOMMANDS.put("verify", VerifyCommand::new);
        SUBCOMMANDS.put("report", ReportCommand::new);
        SUBCOMMANDS.put("history", HistoryCommand::new);
        SUBCOMMANDS.put("calibrate", CalibrateCommand::new);
        SUBCOMMANDS.put("bisect", BisectCommand::new);
        SUBCOMMANDS.put("power-ledger", PowerLedgerCommand::new);
        SUBCOMMANDS.put("power-modes", PowerModesCommand::new);
    }

    private final PrintStream out;
    private final PrintStream err;

    Main(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) throws InterruptedException {
        OptionalInt relaunched = SilentLaunch.relaunch();
        if (relaunched.isPresent()) {
            System.exit(relaunched.getAsInt());
        }
        SilentLaunch.followParent();
        if (!SilentLaunch.silent()) {
            System.err.println("inferbench: could not start again with " + SilentLaunch.VARIABLE + "=1; ONNX Runtime"
                    + " may write telemetry under ~/.cache/Microsoft (set " + SilentLaunch.VARIABLE + "=1 to stop it)");
        }
        System.exit(new Main(System.out, System.err).run(args));
    }

    int run(String[] argv) {
        List<String> args = new ArrayList<>(Arrays.asList(argv));
        boolean verbose = args.remove("--verbose");
        if (args.equals(List.of("--version"))) {
            out.println(BuildInfo.ofThisJar().describe());
            return ExitCode.OK;
        }
        if (!args.isEmpty() && SUBCOMMANDS.containsKey(args.get(0))) {
            return run(args.subList(1, args.size()), SUBCOMMANDS.get(args.get(0)).get(), verbose);
        }
        return guarded(verbose, () -> jmh(args, argv, verbose));
    }

    /** {@code command} run on {@code args} (its name left out): its help, its one-line failures, its exit code. */
    int run(List<String> args, Subcommand command) {
        List<String> rest = new ArrayList<>(args);
        boolean verbose = rest.remove("--verbose");
        return run(rest, command, verbose);
    }

    private int run(List<String> args, Subcommand command, boolean verbose) {
        List<String> rest = List.copyOf(args);
        if (rest.contains("--help") || rest.contains("-h")) {
            out.print(command.usage()); // before any check of the other arguments: help is never bad input
            return ExitCode.OK;
        }
        return guarded(verbose, () -> command.run(rest, out, err));
    }

    /** What exits with a code, or throws what {@link #guarded} turns into one. */
    @FunctionalInterface
    private interface Step {
        int run() throws BenchException, RunStoppedException, IOException;
    }

    private int guarded(boolean verbose, Step step) {
        try {
            return step.run();
        } catch (BenchException e) {
            return fail(e, ioFailure(e) ? ExitCode.IO_FAILURE : ExitCode.BAD_INPUT, verbose);
        } catch (RunStoppedException e) {
            // a disk that filled up mid-run stops it with what landed kept: no cell failed
            return fail(e, ioFailure(e) ? ExitCode.IO_FAILURE : ExitCode.FAILED, verbose);
        } catch (IOException | UncheckedIOException e) {
            // a file that could not be read or written is no verdict on the code measured: 1 would read as one
            return fail(e, ioFailure(e) ? ExitCode.IO_FAILURE : ExitCode.INTERNAL_ERROR, verbose);
        } catch (RuntimeException | Error e) {
            // an Error too (out of memory, a class missing from a mixed-up jar): without this catch the JVM's default
            // handler prints a stack trace and exits 1, the code of a regression
            return fail(e, ExitCode.INTERNAL_ERROR, verbose);
        }
    }

    private int jmh(List<String> given, String[] argv, boolean verbose) throws BenchException, RunStoppedException, IOException {
        List<String> args = given;
        if (args.equals(List.of("--help"))) {
            args = new ArrayList<>(List.of("-h")); // JMH's parser knows only -h
        }
        RunFlags flags = RunFlags.extract(args);
        flags.applyConfig();
        JmhArgs.Parsed parsed = JmhArgs.read(flags.jmhArgs());
        CommandLineOptions cmd = parsed.cmd();
        if (cmd.shouldHelp()) {
            out.println("usage: java -jar target/benchmarks.jar [SUBCOMMAND | JMH and inferbench options]");
            out.println("A run measures every cell of the matrix (-p model=resnet50 -p batchSize=1,8) in forks and"
                    + " prints the plan, a line per fork, the summary and where its files are; JMH's own log goes"
                    + " to the run folder's jmh.log (-v NORMAL shows it as it runs).");
            out.println("inferbench's options: --version (the build, its commit and engine versions), --verbose"
                    + " (JMH's log and stack traces); defaults from "
                    + BenchConfig.FILE_NAME + " (--config FILE: your own, outside the checkout); a run folder results/<time>-<sha>/ kept fork by fork (-rff FILE:"
                    + " a copy of the result there too);");
            out.println("  --cells FILE (a list of configurations), --resume DIR [-f N] [--trust-folder], --run-dir DIR,"
                    + " --shard i/n, --max-forks N, --fork-timeout D,"
                    + " --precision P%, --budget D, --paced, --rerun-disturbed N|P%, --keep-disturbed"
                    + " (see docs/running.md)");
            out.println("  --flame [--flame-events cpu,alloc,...] [--flame-optional], --op-profile,"
                    + " --threshold '[param=v:]metric<value', --percentiles 50,90,99.9 (the summary's)");
            out.println("subcommands (java -jar target/benchmarks.jar SUBCOMMAND --help for each one's flags):");
            SUBCOMMANDS.forEach((name, command) -> out.println("  " + name + ": " + command.get().summary()));
            out.println();
            out.println("JMH's options (every one works unchanged):");
            cmd.showHelp();
            return ExitCode.OK;
        }
        if (cmd.shouldList() || cmd.shouldListWithParams() || cmd.shouldListProfilers()
                || cmd.shouldListResultFormats()) {
            return list(cmd, args);
        }
        return new RunCommand(out, err, verbose).run(flags, parsed, argv);
    }

    /**
     * Whether the file system refused (somewhere in the causes): a refusal of the file system itself (no permission,
     * not a directory, read-only; a missing file is the input's fault) or a bare IOException, which is what a full
     * disk or a failing device raises. Subclasses that say a file's content is wrong (JSON, protobuf, an early end)
     * are bad input.
     */
    static boolean ioFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof FileSystemException && !(t instanceof NoSuchFileException)
                    || t.getClass() == IOException.class) {
                return true;
            }
        }
        return false;
    }

    private int fail(Throwable e, int code, boolean verbose) {
        String message = e instanceof BenchException || e instanceof RunStoppedException || e.getMessage() == null
                ? String.valueOf(e.getMessage()) : e.toString();
        err.println("inferbench: " + message.strip().lines().findFirst().orElse(""));
        if (verbose) {
            e.printStackTrace(err);
        }
        return code;
    }

    private int list(CommandLineOptions cmd, List<String> args) throws BenchException {
        JmhDriver.list(cmd, cmd.shouldListWithParams() ? withConfigParams(cmd, args, BenchConfig.load()) : cmd);
        return ExitCode.OK;
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
}

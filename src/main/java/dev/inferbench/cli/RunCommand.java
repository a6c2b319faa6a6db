package dev.inferbench.cli;

import dev.inferbench.ExitCode;
import dev.inferbench.BenchException;
import dev.inferbench.flow.AfterRun;
import dev.inferbench.flow.RunFlow;
import dev.inferbench.flow.RunRequest;
import dev.inferbench.prepare.JmhArgs;
import dev.inferbench.run.RunStoppedException;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;

/**
 * A benchmark run: the parsed flags handed to {@link RunFlow}, which plans the matrix (or reads the plan of the run
 * being resumed), drives the run loop and prints JMH's table, inferbench's summary and what was skipped and failed;
 * here its ending becomes the exit code.
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

    int run(RunFlags flags, JmhArgs.Parsed args, String[] argv) throws BenchException, IOException, RunStoppedException {
        RunRequest request = new RunRequest(List.of(argv), args, flags.options(), verbose);
        AfterRun.Ending ending = new RunFlow(out, err).run(request);
        return ending.ok() ? ExitCode.OK : ExitCode.FAILED;
    }
}

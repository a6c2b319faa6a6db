package dev.inferbench.commits;

import dev.inferbench.AtomicFile;
import dev.inferbench.BenchException;
import dev.inferbench.ExitCode;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * One interleaved comparison of two commits, as {@code compare-commits} runs it: {@code args} are that subcommand's
 * arguments ({@code BASE HEAD [JMH args] [--precision P] [--budget D] ...}) and the exit code is its ending: 0 pass,
 * 1 a regression (with {@code --fail-on-regression}), 3 could not tell, 2 bad input or a side that does not build,
 * 4 any other failure. The bisect and the power ledger ask their questions through this, so their tests can answer
 * without building anything.
 */
@FunctionalInterface
public interface CommitComparison {
    int run(List<String> args, PrintStream out, PrintStream err) throws BenchException;

    /** {@link #run} with everything it prints in {@code log}; a refusal ends 2, as the jar ends one run by hand. */
    default int runInto(List<String> args, Path log) throws IOException {
        try (OutputStream file = AtomicFile.log(log, false);
             PrintStream p = new PrintStream(file, true, StandardCharsets.UTF_8)) {
            try {
                return run(args, p, p);
            } catch (BenchException e) {
                p.println("compare-commits: " + e.getMessage());
                return ExitCode.BAD_INPUT;
            }
        }
    }
}

package dev.inferbench.cli;

import dev.inferbench.ExitCode;
import dev.inferbench.BenchException;
import dev.inferbench.profile.FlameDiff;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code flame diff RUN_A RUN_B [-o DIR]}: for every cell flame-graphed in both runs ({@code --flame}), the
 * differential flame graph of each event: B's stacks, frames red where B spends more than A, blue where less; the
 * same for ORT's operator profile ({@code --op-profile}); and each common cell's latency B over A (with A run
 * without --flame and B with it, the profiler's overhead). Here the arguments are parsed; {@link FlameDiff} does
 * the rest.
 */
final class FlameCommand implements Subcommand {
    private static final Options OPTIONS = new Options("flame", "diff RUN_A RUN_B")
            .row("RUN_A RUN_B", "two run folders");
    private static final Options.Flag<Path> OUT = OPTIONS.value("-o", "DIR", Options.FOLDER, null,
            "where the graphs go (default: RUN_B/flames-diff)");

    @Override
    public String summary() {
        return OPTIONS.synopsis() + ": differential flame graphs (and ORT operator profiles) per cell, latency B/A";
    }

    @Override
    public String usage() {
        return OPTIONS.usage("""
                For every cell flame-graphed (--flame) in both runs, the differential flame graph of each event: B's
                stacks, red where B spends more than A, blue where less; the same for ORT's operator profiles
                (--op-profile); and each common cell's latency B/A.
                """, "Exit 0 when something was compared, 1 when the runs have no cell in common, 2 bad input.\n");
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws BenchException {
        Options.Parsed p = OPTIONS.parse(args);
        List<String> rest = p.operands();
        if (rest.size() != 3 || !rest.get(0).equals("diff")) {
            throw new BenchException("expected: " + OPTIONS.synopsis() + "; got: flame " + String.join(" ", args));
        }
        return FlameDiff.diff(rest.get(1), rest.get(2), p.get(OUT), out) ? ExitCode.OK : ExitCode.FAILED;
    }
}

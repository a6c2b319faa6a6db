package dev.inferbench.cli;

import dev.inferbench.ExitCode;
import dev.inferbench.BenchException;
import dev.inferbench.profile.FlameDiff;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code flame diff RUN_A RUN_B [-o DIR]}: for every cell flame-graphed in both runs ({@code --flame}), the
 * differential flame graph of each event: B's stacks, frames red where B spends more than A, blue where less; the
 * same for ORT's operator profile ({@code --op-profile}); and each common cell's latency B over A (with A run
 * without --flame and B with it, the profiler's overhead). Here the arguments are parsed; {@link FlameDiff} does
 * the rest.
 */
final class FlameCommand implements Subcommand {

    @Override
    public String summary() {
        return "flame diff RUN_A RUN_B [-o DIR]: differential flame graphs (and ORT operator profiles) per cell, latency B/A";
    }

    @Override
    public String usage() {
        return USAGE_PREFIX + """
                flame diff RUN_A RUN_B [-o DIR]
                For every cell flame-graphed (--flame) in both runs, the differential flame graph of each event: B's
                stacks, red where B spends more than A, blue where less; the same for ORT's operator profiles
                (--op-profile); and each common cell's latency B/A.
                  RUN_A RUN_B   two run folders
                  -o DIR        where the graphs go (default: RUN_B/flames-diff)
                Exit 0 when something was compared, 1 when the runs have no cell in common, 2 bad input.
                """;
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws BenchException {
        List<String> rest = new ArrayList<>(args);
        Path target = null;
        int o = rest.indexOf("-o");
        if (o >= 0) {
            if (o + 1 >= rest.size()) {
                throw new BenchException("-o needs a folder; expected flame diff RUN_A RUN_B -o DIR");
            }
            target = Path.of(rest.remove(o + 1));
            rest.remove(o);
        }
        if (rest.size() != 3 || !rest.get(0).equals("diff")) {
            throw new BenchException("expected: flame diff RUN_A RUN_B [-o DIR]; got: flame " + String.join(" ", args));
        }
        return FlameDiff.diff(rest.get(1), rest.get(2), target, out) ? ExitCode.OK : ExitCode.FAILED;
    }
}

package dev.inferbench.cli;

import dev.inferbench.ExitCode;
import dev.inferbench.BenchException;
import dev.inferbench.flow.VarianceFlow;
import dev.inferbench.stats.Power;
import dev.inferbench.stats.Verdict;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * {@code variance RUN}: each cell's between-fork and within-fork variance (Kalibera &amp; Jones) and the split of
 * forks and iterations that buys the narrowest interval of the mean in the budget, with the fork cost measured from
 * the run folder. With {@code --ab}, also the smallest slowdown {@code compare} flags with 95 % power in it
 * ({@link Power}), the figure a gate's machine is checked with before it is trusted. Here the flags are read;
 * {@link VarianceFlow} reads the run and prints the table.
 */
final class VarianceCommand implements Subcommand {
    private static final Options OPTIONS = new Options("variance", "RUN")
            .row("RUN", "a run folder with at least 2 forks of 2 iterations per cell");
    private static final Options.Flag<Duration> BUDGET = OPTIONS.value("--budget", "D", Options.DURATION,
            Duration.ofMinutes(5), "the time to plan for (default 5m; e.g. 90s, 10m, 1h)");
    private static final Options.Flag<Boolean> AB = OPTIONS.toggle("--ab", "the budget is for an interleaved A/B"
            + " comparison of two builds (half a side); adds the smallest slowdown compare flags in it with 95 % power");
    private static final Options.Flag<Double> MIN_EFFECT = OPTIONS.value("--min-effect", "P", Options.PERCENT,
            Verdict.DEFAULT_MIN_EFFECT, "with --ab, compare's minimum effect (default "
                    + VarianceFlow.pct(Verdict.DEFAULT_MIN_EFFECT) + ")");
    private static final Options.Flag<Double> FORK_SECONDS = OPTIONS.value("--fork-seconds", "S", new Options.Type<>(
            "seconds, e.g. 7.5", (t, f) -> positiveSeconds(t)), Double.NaN,
            "a fork's wall time where the A/B will run (default: this run's median fork)");

    @Override
    public String summary() {
        return OPTIONS.synopsis() + ": variance components per cell, the best forks x iterations for a budget; with"
                + " --ab the smallest slowdown an A/B compare catches in it";
    }

    @Override
    public String usage() {
        return OPTIONS.usage("""
                Each cell's between-fork and within-fork variance (Kalibera & Jones), and the forks x iterations that
                give the narrowest interval of the mean within a budget, from the fork cost this run measured.
                """, "");
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws BenchException {
        Options.Parsed p = OPTIONS.parse(args);
        if (p.operands().size() != 1) {
            throw new BenchException("variance needs one run folder, got " + p.operands().size() + "; expected: "
                    + OPTIONS.synopsis());
        }
        VarianceFlow.print(Path.of(p.operands().get(0)), p.get(BUDGET), p.get(AB), p.get(MIN_EFFECT),
                p.get(FORK_SECONDS), out);
        return ExitCode.OK;
    }

    private static double positiveSeconds(String s) throws BenchException {
        try {
            double v = Double.parseDouble(s.endsWith("s") ? s.substring(0, s.length() - 1) : s);
            if (v > 0 && Double.isFinite(v)) {
                return v;
            }
        } catch (NumberFormatException e) {
            // the message below
        }
        throw new BenchException("--fork-seconds '" + s + "' is not a positive number of seconds; expected e.g. 7.5");
    }
}

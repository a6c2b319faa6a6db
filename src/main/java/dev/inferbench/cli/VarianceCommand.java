package dev.inferbench.cli;

import dev.inferbench.ExitCode;
import dev.inferbench.BenchException;
import dev.inferbench.Numbers;
import dev.inferbench.flow.VarianceFlow;
import dev.inferbench.stats.Power;
import dev.inferbench.stats.Verdict;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * {@code variance RUN [--budget 5m] [--ab] [--min-effect 3%]}: each cell's between-fork and within-fork variance
 * (Kalibera &amp; Jones) and the split of forks and iterations that buys the narrowest interval of the mean in the
 * budget, with the fork cost measured from the run folder and the iteration length the run used. With {@code --ab}
 * the budget is for an interleaved A/B comparison of two builds (half the time per side) and each cell also gets
 * the smallest slowdown {@code compare} flags with 95 % power in it ({@link Power}), the figure a gate's machine is checked with
 * before it is trusted. Here the flags are parsed; {@link VarianceFlow} reads the run and prints the table.
 */
final class VarianceCommand implements Subcommand {
    private static final String USAGE = "variance RUN [--budget 5m] [--ab] [--min-effect 3%] [--fork-seconds S]";

    @Override
    public String summary() {
        return USAGE + ": variance components per cell, the best forks x iterations for a budget; with --ab the"
                + " smallest slowdown an A/B compare catches in it";
    }

    @Override
    public String usage() {
        return USAGE_PREFIX + USAGE + "\n" + """
                Each cell's between-fork and within-fork variance (Kalibera & Jones), and the forks x iterations that
                give the narrowest interval of the mean within a budget, from the fork cost this run measured.
                  RUN               a run folder with at least 2 forks of 2 iterations per cell
                  --budget D        the time to plan for (default 5m; e.g. 90s, 10m, 1h)
                  --ab              the budget is for an interleaved A/B comparison of two builds (half a side); adds
                                    the smallest slowdown compare flags in it with 95 %% power
                  --min-effect P    with --ab, compare's minimum effect (default %s)
                  --fork-seconds S  a fork's wall time where the A/B will run (default: this run's median fork)
                """.formatted(VarianceFlow.pct(Verdict.DEFAULT_MIN_EFFECT));
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws BenchException {
        Path dir = null;
        Duration budget = Duration.ofMinutes(5);
        boolean ab = false;
        double minEffect = Verdict.DEFAULT_MIN_EFFECT;
        double forkSeconds = Double.NaN;
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).equals("--budget") && i + 1 < args.size()) {
                budget = Numbers.duration(args.get(++i), "--budget");
            } else if (args.get(i).equals("--min-effect") && i + 1 < args.size()) {
                minEffect = Numbers.percent(args.get(++i), "--min-effect");
            } else if (args.get(i).equals("--fork-seconds") && i + 1 < args.size()) {
                forkSeconds = positiveSeconds(args.get(++i));
            } else if (args.get(i).equals("--ab")) {
                ab = true;
            } else if (args.get(i).startsWith("-") || dir != null) {
                throw new BenchException("unexpected '" + args.get(i) + "' for variance; expected: " + USAGE);
            } else {
                dir = Path.of(args.get(i));
            }
        }
        if (dir == null) {
            throw new BenchException("variance needs a run folder; expected: " + USAGE);
        }
        VarianceFlow.print(dir, budget, ab, minEffect, forkSeconds, out);
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

package dev.inferbench.cli;

import java.util.Arrays;
import dev.inferbench.BenchException;
import dev.inferbench.compare.CellResults;
import dev.inferbench.compare.ForkTimes;
import dev.inferbench.compare.MetricSeries;
import dev.inferbench.compare.RunReader;
import dev.inferbench.stats.ForkMeans;
import dev.inferbench.stats.Power;
import dev.inferbench.stats.ForksAndIterations;
import dev.inferbench.stats.VarianceComponents;
import dev.inferbench.stats.Verdict;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * {@code variance RUN [--budget 5m] [--ab] [--min-effect 3%]}: each cell's between-fork and within-fork variance
 * (Kalibera &amp; Jones) and the split of forks and iterations that buys the narrowest interval of the mean in the
 * budget, with the fork cost measured from the run folder and the iteration length the run used. With {@code --ab}
 * the budget is for an interleaved A/B comparison of two builds (half the time per side) and each cell also gets
 * the smallest slowdown {@code compare} flags with 95 % power in it ({@link Power}): what {@code tools/calibrate}
 * prints.
 */
final class VarianceCommand implements Subcommand {
    private static final int MAX_ITERATIONS = 60;
    private static final int TRIALS = 500;
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
                """.formatted(pct(Verdict.DEFAULT_MIN_EFFECT));
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
                budget = RunFlags.duration(args.get(++i), "--budget");
            } else if (args.get(i).equals("--min-effect") && i + 1 < args.size()) {
                minEffect = RunFlags.percent(args.get(++i), "--min-effect");
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
        List<CellResults> cells = RunReader.read(dir);
        double iteration = RunReader.iterationSeconds(dir);
        // what a fork costs where the A/B will run, when that is not this run's own median fork (e.g. half of a
        // tools/compare-commits.sh pair: its fork, the other side's and what the script spends between them)
        double forkWall = Double.isNaN(forkSeconds) ? ForkTimes.medianForkSeconds(dir) : forkSeconds;
        double perCell = budget.toMillis() / 1e3 / cells.size() / (ab ? 2 : 1);
        out.printf(Locale.ROOT, "fork wall time (%s) %.1f s, iteration %.1f s, budget %s = %.0f s per cell%s (%d cells)%n",
                Double.isNaN(forkSeconds) ? "median" : "given", forkWall, iteration, budget.toString().substring(2).toLowerCase(Locale.ROOT), perCell,
                ab ? " and side" : "", cells.size());
        out.println("cell | mean | sigma_fork | sigma_iter | fork share | forks x iters | ±95% now | best split in budget"
                + " | ±95% then" + (ab ? " | smallest slowdown caught (95% power, min effect " + pct(minEffect) + ")" : ""));
        for (CellResults c : cells) {
            MetricSeries m = c.metrics().values().iterator().next();
            if (m.forks().length < 2 || Arrays.stream(m.forks()).allMatch(f -> f.length < 2)) {
                out.println(c.key().label() + " | too few forks or iterations: the components need at least 2 forks"
                        + " and 2 iterations per fork (e.g. -f 5 -i 2)");
                continue;
            }
            VarianceComponents vc = VarianceComponents.of(m.forks());
            int k = m.forks().length;
            int n = (int) Math.round(vc.iterations());
            String now = String.format(Locale.ROOT, "%s | %.4g %s | %.2f%% | %.2f%% | %.0f%% | %d x %d | ±%.2f%%",
                    c.key().label(), vc.mean(), m.unit(), 100 * Math.sqrt(vc.betweenFork()) / vc.mean(),
                    100 * Math.sqrt(vc.withinFork()) / vc.mean(), 100 * vc.forkShare(), k, n,
                    100 * ForkMeans.interval(m.forks(), ForkMeans.DEFAULT_CONFIDENCE).relativeError());
            if (Double.isNaN(forkWall)) {
                out.println(now + " | n/a: no fork wall times in this run folder (forks/*/fork-N.time.json) | n/a");
                continue;
            }
            double forkCost = Math.max(0.5, forkWall - n * iteration);
            ForksAndIterations best = ForksAndIterations.optimal(vc, forkCost, iteration, perCell, MAX_ITERATIONS);
            out.printf(Locale.ROOT, "%s | %d x %d (%.0f s) | ±%.2f%%%n", now,
                    best.forks(), best.iterations(), best.seconds(), 100 * best.relativeError());
            if (ab) {
                double smallest = Power.smallestDetected(vc, best.forks(), best.iterations(), minEffect, 0.95, TRIALS, 1);
                out.println("  -> A/B with " + best.forks() + " forks x " + best.iterations() + " iterations per side: "
                        + (Double.isNaN(smallest) ? "not even a 100% slowdown is caught" : "catches a " + pct(smallest)
                        + " slowdown 95% of the time"));
            }
        }
        return Main.OK;
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

    private static String pct(double fraction) {
        return String.format(Locale.ROOT, "%.1f%%", fraction * 100);
    }
}

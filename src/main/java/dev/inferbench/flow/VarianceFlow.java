package dev.inferbench.flow;

import dev.inferbench.BenchException;
import dev.inferbench.compare.CellResults;
import dev.inferbench.compare.ForkTimes;
import dev.inferbench.compare.MetricSeries;
import dev.inferbench.compare.RunReader;
import dev.inferbench.results.jmh.MeasuredCell;
import dev.inferbench.stats.ForkMeans;
import dev.inferbench.stats.Percentiles;
import dev.inferbench.stats.SpeedLevels;
import dev.inferbench.stats.ForksAndIterations;
import dev.inferbench.stats.Power;
import dev.inferbench.stats.VarianceComponents;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Each cell's between-fork and within-fork variance (Kalibera &amp; Jones) in a run folder and the split of forks and
 * iterations that buys the narrowest interval of the mean in a budget, with the fork cost measured from the run
 * folder (or given) and the iteration length the run used. With {@code ab} the budget is for an interleaved A/B
 * comparison of two builds (half the time per side) and each cell also gets the smallest slowdown {@code compare}
 * flags with 95 % power in it ({@link Power}).
 */
public final class VarianceFlow {
    private static final int MAX_ITERATIONS = 60;
    private static final int TRIALS = 500;

    private VarianceFlow() {
    }

    /**
     * Prints the table for the run folder {@code dir}.
     *
     * @param forkSeconds a fork's wall time where the A/B will run, NaN for this run's median fork
     */
    public static void print(Path dir, Duration budget, boolean ab, double minEffect, double forkSeconds,
                             PrintStream out) throws BenchException {
        List<MeasuredCell> measured = RunReader.readCells(dir);
        List<CellResults> cells = RunReader.of(measured);
        double iteration = RunReader.iterationSeconds(dir);
        // what a fork costs where the A/B will run, when that is not this run's own median fork (e.g. half of a
        // compare-commits pair: its fork, the other side's and what the script spends between them)
        double forkWall = Double.isNaN(forkSeconds) ? ForkTimes.medianForkSeconds(dir) : forkSeconds;
        double perCell = budget.toMillis() / 1e3 / cells.size() / (ab ? 2 : 1);
        out.printf(Locale.ROOT, "fork wall time (%s) %.1f s, iteration %.1f s, budget %s = %.0f s per cell%s (%d cells)%n",
                Double.isNaN(forkSeconds) ? "median" : "given", forkWall, iteration, budget.toString().substring(2).toLowerCase(Locale.ROOT), perCell,
                ab ? " and side" : "", cells.size());
        out.println("cell | mean | sigma_fork | sigma_iter | fork share | forks x iters | ±95% now | best split in budget"
                + " | ±95% then" + (ab ? " | smallest slowdown caught (95% power, min effect " + pct(minEffect) + ")" : ""));
        for (int i = 0; i < cells.size(); i++) {
            CellResults c = cells.get(i);
            MetricSeries m = c.metrics().values().iterator().next();
            if (m.forks().length < 2 || Arrays.stream(m.forks()).allMatch(f -> f.length < 2)) {
                out.println(c.key().label() + " | too few forks or iterations: the components need at least 2 forks"
                        + " and 2 iterations per fork (e.g. -f 5 -i 2)");
                levels(measured.get(i), m.unit(), out);
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
                levels(measured.get(i), m.unit(), out);
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
            levels(measured.get(i), m.unit(), out);
        }
    }

    /**
     * For timed calls (SampleTime), whether the machine ran them slower in stretches: each iteration's median call
     * against the cell's lowest level ({@link SpeedLevels}).
     */
    private static void levels(MeasuredCell cell, String unit, PrintStream out) {
        List<List<double[]>> hist = cell.primary().histograms();
        if (hist.isEmpty()) {
            return;
        }
        double[][] medians = hist.stream().map(fork -> fork.stream().mapToDouble(VarianceFlow::median).toArray())
                .toArray(double[][]::new);
        SpeedLevels s = SpeedLevels.of(medians);
        if (s.iterations() < 2) {
            return;
        }
        String lowest = String.format(Locale.ROOT, "%.4g %s", s.lowest(), unit);
        out.println(s.slow() == 0
                ? String.format(Locale.ROOT, "  -> iteration medians: none of %d at %.2fx the lowest level (%s) or more:"
                        + " no stretch ran the calls slower", s.iterations(), SpeedLevels.STEP, lowest)
                : String.format(Locale.ROOT, "  -> iteration medians: %d of %d at %.2fx the lowest level (%s; median"
                        + " %.2fx), in %d of %d forks: the machine ran every call slower in stretches, which spreads the"
                        + " fork means (statistics.md, microsecond cells)", s.slow(), s.iterations(), SpeedLevels.STEP,
                        lowest, s.slowLevel(), s.forksHit(), s.forks()));
    }

    /** The median call of one iteration's histogram bins (flat [value, count] pairs). */
    private static double median(double[] bins) {
        double[][] pairs = new double[bins.length / 2][];
        for (int i = 0; i < pairs.length; i++) {
            pairs[i] = new double[]{bins[2 * i], bins[2 * i + 1]};
        }
        return new Percentiles(List.<double[][]>of(pairs)).estimate(50);
    }

    public static String pct(double fraction) {
        return String.format(Locale.ROOT, "%.1f%%", fraction * 100);
    }
}

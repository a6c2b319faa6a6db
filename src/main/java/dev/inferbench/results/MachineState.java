package dev.inferbench.results;

import dev.inferbench.stats.Percentiles;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.cell.VaryingParams;
import dev.inferbench.metrics.MachineProfiler;
import dev.inferbench.results.jmh.MeasuredCell;
import dev.inferbench.results.jmh.JmhMetric;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What the machine did over a run, from {@link MachineProfiler}'s figures in every fork of every cell: the canary's
 * median and its spread over the forks (the machine's drift), other processes' CPU, and the forks run while the
 * machine was disturbed: other processes took at least {@link #BURST_CORES} cores more than their median over the run
 * in the fork's busiest measured iteration,
 * or the canary ran at least {@link #SLOW_CANARY} slower than over the run (the same rule by which a comparison leaves
 * a pair out). The same kernel runs in every fork, so a slow phase shows in every
 * cell measured during it; a build that is slower shows in its cells' times, not in the canary.
 *
 * @param forks         forks with machine figures
 * @param canaryMedian  the canary's median over those forks, ms
 * @param canarySpread  (90th - 10th percentile) / median of the forks' canaries
 * @param othersMedian  the forks' median of other processes' CPU, cores
 * @param disturbed     the forks run while the machine was disturbed, cell by cell
 */
public record MachineState(int forks, double canaryMedian, double canarySpread, double othersMedian,
                           List<Disturbed> disturbed) {

    /** A fork run while the machine was disturbed, and why ("other processes 1.0 cores"). */
    public record Disturbed(String cell, int fork, String why) {
    }
    /** Other processes' median CPU, in cores, at which the summary says that the whole run shared the machine. */
    public static final double BUSY_CORES = 0.5;
    public static final double SLOW_CANARY = 0.20;
    /** Other processes' CPU above the run's median, in cores, that marks a fork's pair disturbed (see disturbedForks). */
    public static final double BURST_CORES = 0.25;
    /** Two runs whose canaries differ by more than this saw different machines (or machine states). */
    public static final double DIFFERENT_MACHINE = 0.10;
    /** ... or whose other processes' median differs by this many cores, or whose disturbed forks by this share. */
    public static final double DIFFERENT_OTHERS = 0.25;

    /** The share of the forks run while the machine was disturbed. */
    public double disturbedShare() {
        return forks == 0 ? 0 : disturbed.size() / (double) forks;
    }

    /** Empty when no cell carries the machine figures (a run of an older build, or a foreign JMH file). */
    public static Optional<MachineState> of(List<MeasuredCell> cells) {
        record Fork(String label, int fork, double canary, double others) {
        }
        List<Fork> forks = new ArrayList<>();
        for (MeasuredCell c : cells) {
            JmhMetric canary = c.secondary().get(MachineProfiler.CANARY);
            if (canary == null) {
                continue;
            }
            double[] canaries = medians(canary.iterationMeans());
            JmhMetric others = c.secondary().get(MachineProfiler.OTHERS);
            double[] busy = others == null ? new double[canaries.length] : busiest(others);
            for (int f = 0; f < canaries.length; f++) {
                forks.add(new Fork(label(c, cells), f + 1, canaries[f], f < busy.length ? busy[f] : Double.NaN));
            }
        }
        if (forks.isEmpty()) {
            return Optional.empty();
        }
        double[] canaries = forks.stream().mapToDouble(Fork::canary).sorted().toArray();
        double median = Percentiles.interpolated(canaries, 0.5);
        double spread = (Percentiles.interpolated(canaries, 0.9) - Percentiles.interpolated(canaries, 0.1)) / median;
        double othersMedian = Percentiles.median(forks.stream().mapToDouble(Fork::others)
                .filter(d -> !Double.isNaN(d)).toArray());
        List<Disturbed> disturbed = new ArrayList<>();
        for (Fork f : forks) {
            List<String> why = why(f.canary(), f.others(), median, othersMedian);
            if (!why.isEmpty()) {
                disturbed.add(new Disturbed(f.label(), f.fork(), String.join(", ", why)));
            }
        }
        return Optional.of(new MachineState(forks.size(), median, spread, othersMedian, disturbed));
    }

    /**
     * Per fork of {@code cell}, whether the machine was disturbed while it ran, as a comparison leaves such a fork's
     * pair out of its verdict: its canary ran at least {@link #SLOW_CANARY} slower than {@code canaryMedian}, or other
     * processes used at least {@link #BURST_CORES} cores more than {@code othersMedian} (the run's medians). The CPU
     * of others counts above the run's own usual level, not from zero: in a duet the partner's fork is another process
     * all the time, and a machine with a steady neighbour is steady. The canary alone missed most bursts: an A/A of
     * mlp-tiny with two busy loops for 6 s every 30 s had 12 forks a side at 0.3-1.4 cores of others (the median 0.02)
     * and 1 of them with a slow canary. Empty when the cell has no canary.
     */
    public static boolean[] disturbedForks(MeasuredCell cell, double canaryMedian, double othersMedian) {
        String[] why = reasons(cell, canaryMedian, othersMedian);
        boolean[] out = new boolean[why.length];
        for (int f = 0; f < why.length; f++) {
            out[f] = !why[f].isEmpty();
        }
        return out;
    }

    /**
     * Per fork of {@code cell}, why {@link #disturbedForks} marks it ("canary +44%"), empty for a quiet fork: the
     * same rule, with its reasons for the lines that name a fork. Empty when the cell has no canary.
     */
    public static String[] reasons(MeasuredCell cell, double canaryMedian, double othersMedian) {
        JmhMetric canary = cell.secondary().get(MachineProfiler.CANARY);
        if (canary == null || !(canaryMedian > 0)) {
            return new String[0];
        }
        double[] canaries = medians(canary.iterationMeans());
        JmhMetric others = cell.secondary().get(MachineProfiler.OTHERS);
        double[] busy = others == null ? new double[0] : busiest(others);
        String[] out = new String[canaries.length];
        for (int f = 0; f < canaries.length; f++) {
            out[f] = String.join(", ", why(canaries[f], f < busy.length ? busy[f] : Double.NaN, canaryMedian,
                    othersMedian));
        }
        return out;
    }

    /**
     * Whether a fork counts as disturbed by the rule of {@link #disturbedForks}, from figures taken anywhere: inside
     * the fork (its canary and /proc readings) or outside it (compare-commits's machine record).
     */
    public static boolean disturbed(double canary, double others, double canaryMedian, double othersMedian) {
        return !why(canary, others, canaryMedian, othersMedian).isEmpty();
    }

    /**
     * Why a fork counts as disturbed, empty when it does not: the one rule for the summary's line and for the pairs a
     * comparison leaves out. The canary {@link #SLOW_CANARY} or more slower than the run's median, or other processes
     * {@link #BURST_CORES} cores or more above the run's median of other processes (not an absolute level, so that a
     * steady neighbour or a duet's partner does not flag every fork; {@link #line()} names a run that shared the
     * machine throughout).
     */
    private static List<String> why(double canary, double others, double canaryMedian, double othersMedian) {
        List<String> why = new ArrayList<>(2);
        if (!Double.isNaN(others) && !Double.isNaN(othersMedian) && others >= othersMedian + BURST_CORES) {
            why.add(String.format(Locale.ROOT, "other processes %.1f cores", others));
        }
        if (canary >= canaryMedian * (1 + SLOW_CANARY)) {
            why.add(String.format(Locale.ROOT, "canary %+.0f%%", 100 * (canary / canaryMedian - 1)));
        }
        return why;
    }

    /** One line for the summary and the reports. */
    public String line() {
        String head = String.format(Locale.ROOT, "machine: canary %.3g ms (median of %d forks), spread %.0f%% over the"
                        + " run; other processes %.2f cores (median)", canaryMedian, forks, 100 * canarySpread,
                othersMedian);
        if (othersMedian >= BUSY_CORES) {
            head += String.format(Locale.ROOT, ", so the whole run shared the machine (%.1f cores or more of others is"
                    + " busy)", BUSY_CORES);
        }
        if (disturbed.isEmpty()) {
            return head + "; no fork disturbed";
        }
        // one cell named once, then its forks: "infer sample model=a: fork 3 (...), fork 4 (...)"
        Map<String, List<String>> byCell = new LinkedHashMap<>();
        for (Disturbed d : disturbed) {
            byCell.computeIfAbsent(d.cell(), k -> new ArrayList<>()).add("fork " + d.fork() + " (" + d.why() + ")");
        }
        List<String> parts = new ArrayList<>();
        byCell.forEach((cell, forks) -> parts.add(cell + ": " + String.join(", ", forks)));
        return head + "; " + disturbed.size() + " fork" + (disturbed.size() == 1 ? "" : "s") + " run while the machine"
                + " was disturbed: " + String.join("; ", parts);
    }

    /** For compare: a line when the two runs saw machines that differ, else empty. */
    public static Optional<String> difference(MachineState baseline, MachineState candidate) {
        double change = candidate.canaryMedian / baseline.canaryMedian - 1;
        double othersChange = candidate.othersMedian - baseline.othersMedian;
        double disturbedChange = candidate.disturbedShare() - baseline.disturbedShare();
        if (Math.abs(change) <= DIFFERENT_MACHINE && Math.abs(othersChange) < DIFFERENT_OTHERS
                && Math.abs(disturbedChange) < DIFFERENT_OTHERS) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT, "machine: the two sides saw different machine states (canary"
                        + " %.3g ms vs %.3g ms, %+.0f%%; other processes %.2f vs %.2f cores; disturbed forks %.0f%% vs"
                        + " %.0f%%): a change in the cells may be the machine's", baseline.canaryMedian,
                candidate.canaryMedian, 100 * change, baseline.othersMedian, candidate.othersMedian,
                100 * baseline.disturbedShare(), 100 * candidate.disturbedShare()));
    }

    /**
     * "batchSize=1 threads=2": the params that tell the cell from the run's others (with the benchmark when several
     * ran); a run of one cell by its model.
     */
    static String label(MeasuredCell c, List<MeasuredCell> all) {
        String params = VaryingParams.of(all.stream().map(MeasuredCell::params).toList()).name(c.params());
        boolean benchmarks = all.stream().map(MeasuredCell::shortName).distinct().count() > 1;
        String name = c.shortName().substring(c.shortName().lastIndexOf('.') + 1);
        if (benchmarks) {
            return (name + " " + params).strip();
        }
        return params.isEmpty() ? c.params().getOrDefault(CellSpec.MODEL, name) : params;
    }

    /** Whether a secondary metric is one of the machine's (shown as the run's state, not as a figure of a cell). */
    public static boolean isMachineMetric(String name) {
        return name.startsWith("machine.");
    }

    private static double[] medians(double[][] perFork) {
        return Arrays.stream(perFork).mapToDouble(Percentiles::median).toArray();
    }

    /**
     * Per fork, other processes' CPU in its busiest measured iteration: a burst that overlaps one iteration of two
     * marks the fork, where the mean of the two halves it and missed it (NaN for a fork without the figure).
     */
    private static double[] busiest(JmhMetric others) {
        return Arrays.stream(ForkRule.MAX.forks(others)).mapToDouble(f -> f.length == 0 ? Double.NaN : f[0]).toArray();
    }
}

package dev.inferbench.results.jmh;

import dev.inferbench.stats.TrimmedMean;

import java.util.regex.Pattern;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One entry of a JMH result file: a benchmark method in one mode with one value per parameter, and its metrics.
 * Files from any JMH benchmark read into this, whatever its parameters (or none).
 *
 * @param params    parameter values in the file's order (JMH writes them as strings)
 * @param secondary secondary metrics by name, JMH's old {@code ·} prefix removed ({@code gc.alloc.rate})
 * @param run       the rest of JMH's fields (jmhVersion, jvm, jvmArgs, jdkVersion, vmName, vmVersion, iteration
 *                  settings), in the file's order and as written, so that a cell writes back unchanged
 */
public record MeasuredCell(String benchmark, String mode, int threads, int forks, Map<String, String> params,
                      JmhMetric primary, Map<String, JmhMetric> secondary, Map<String, Object> run) {
    private static final Pattern PERCENTILE_ENTRY = Pattern.compile("p\\d\\.\\d+");

    /**
     * Whether the cell's forks took turns with a partner's (compare-commits --turns): their JVM arguments, which JMH
     * writes into the result, hold the barrier's {@code -Dinferbench.duet=DIR:SIDE:turns} (DuetBarrier's property).
     */
    public boolean tookTurns() {
        return run.get("jvmArgs") instanceof List<?> args && args.stream()
                .anyMatch(a -> a instanceof String s && s.startsWith("-Dinferbench.duet=") && s.endsWith(":turns"));
    }

    /** JMH's length of one measured iteration ({@code "measurementTime": "100 ms"}) in seconds; NaN where not given. */
    public double iterationSeconds() {
        if (!(run.get("measurementTime") instanceof String s)) {
            return Double.NaN;
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+) ?(ns|us|ms|s|min)").matcher(s.strip());
        if (!m.matches()) {
            return Double.NaN;
        }
        double scale = switch (m.group(2)) {
            case "ns" -> 1e-9;
            case "us" -> 1e-6;
            case "ms" -> 1e-3;
            case "s" -> 1;
            default -> 60;
        };
        return Long.parseLong(m.group(1)) * scale;
    }

    /**
     * The cell as if only the forks {@code keep} marks (by their place in the file, from 0) had run: every metric's
     * data, score and percentiles from those forks alone ({@link JmhMetric#onlyForks}).
     */
    public MeasuredCell onlyForks(boolean[] keep) {
        int kept = 0;
        for (int f = 0; f < forks; f++) {
            kept += f >= keep.length || keep[f] ? 1 : 0;
        }
        Map<String, JmhMetric> second = new LinkedHashMap<>();
        secondary.forEach((name, m) -> second.put(name, m.forkCount() == primary.forkCount() ? m.onlyForks(keep) : m));
        return new MeasuredCell(benchmark, mode, threads, kept, params, primary.onlyForks(keep), second, run);
    }

    /** {@code InferenceBenchmark.infer}: class and method. */
    public String shortName() {
        String[] parts = benchmark.split("\\.");
        return parts.length < 2 ? benchmark : parts[parts.length - 2] + "." + parts[parts.length - 1];
    }

    /**
     * The secondary metric that holds a SampleTime cell's mean over every call ({@code CallMeanProfiler}: the window
     * over the calls JMH counted), by name.
     */
    public static final String ALL_CALLS_MEAN = "mean.all";

    /**
     * Per fork, per iteration, the mean time per call: the one definition of a cell's mean that the summary, the
     * reports, the exports and compare use. For a SampleTime cell measured with the all-calls mean, that mean (the
     * histogram's is the mean of the calls SampleTime happened to time, which read 14-35 % high on calls of 2-4
     * µs); otherwise the primary metric's iteration means.
     */
    public double[][] callMeans() {
        JmhMetric all = secondary.get(ALL_CALLS_MEAN);
        boolean usable = all != null && all.unit().equals(primary.unit()) && all.forkCount() == primary.forkCount();
        return usable ? all.iterationMeans() : primary.iterationMeans();
    }

    /**
     * Per fork, per iteration, the mean of the timed calls under {@link TrimmedMean#LIMIT} times the fork's median
     * ({@link TrimmedMean}): the compare metric {@value #TRIMMED}; null for a cell without SampleTime histograms.
     */
    public double[][] trimmedMeans() {
        return primary.histograms().isEmpty() ? null : TrimmedMean.perIteration(primary.histograms());
    }

    /** The name of the metric {@link #trimmedMeans} gives, as {@code compare --gate} takes it. */
    public static final String TRIMMED = "trimmed";

    /** Benchmark, mode and params: what identifies the same cell in two files. */
    public String key() {
        return benchmark + " " + mode + " " + params;
    }

    /**
     * Whether a secondary metric is one of SampleTime's percentiles that JMH repeats as secondary entries
     * ({@code p0.50}, {@code p0.999}): the primary metric's percentiles and histograms already hold them.
     */
    public static boolean isPercentileEntry(String secondaryName) {
        return PERCENTILE_ENTRY.matcher(secondaryName).matches();
    }
}

package dev.inferbench.results;

import dev.inferbench.results.jmh.JmhMetric;
import dev.inferbench.results.jmh.MeasuredCell;
import dev.inferbench.stats.Percentiles;
import org.openjdk.jmh.annotations.Mode;

import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The figures of a cell's timed calls, one rule for the summary, the reports and the exports: the fastest call
 * ({@code min}), the chosen percentiles ({@code p50}, {@code p99.9}: n/a where too few calls stand behind one), the
 * slowest ({@code max}) and the standard deviation of the calls, all forks pooled ({@code sd}). {@code min} and
 * {@code sd} exist only where each call was timed (SampleTime, SingleShotTime): in the other modes an iteration gives
 * a mean, not calls.
 */
public final class CallFigures {
    public static final String MIN = "min";
    public static final String MAX = "max";
    /** The standard deviation of the timed calls, all forks pooled (the spread, not the mean's error). */
    public static final String SD = "sd";
    /** The percentiles shown unless a user chooses others: the median, the tail, its far end. */
    public static final double[] DEFAULT_PERCENTILES = {50, 95, 99};

    private CallFigures() {
    }

    /** min, each percentile, max and sd of the cell's primary metric, by name, in that order, in its unit. */
    public static Map<String, Double> of(MeasuredCell cell, double[] percentiles) {
        JmhMetric primary = cell.primary();
        boolean timed = timesCalls(cell.mode());
        Percentiles calls = timed ? primary.calls() : null;
        Map<String, Double> out = new LinkedHashMap<>();
        if (timed) {
            out.put(MIN, calls.min());
        }
        for (double p : percentiles) {
            out.put(Percentiles.label(p), primary.supportedPercentile(p));
        }
        out.put(MAX, primary.percentile(100.0));
        if (timed) {
            out.put(SD, calls.standardDeviation());
        }
        return out;
    }

    /** Whether the percentiles are the default rather than a user's choice ({@code --percentiles}). */
    public static boolean isDefault(double[] percentiles) {
        return percentiles == DEFAULT_PERCENTILES;
    }

    /** Whether each call of a cell of this JMH mode ("sample", "ss") was timed. */
    public static boolean timesCalls(String mode) {
        return mode.equals(Mode.SampleTime.shortLabel()) || mode.equals(Mode.SingleShotTime.shortLabel());
    }

    /** Whether a name is a percentile's ({@code p50}, {@code p99.9}). */
    public static boolean isPercentile(String name) {
        return name.matches("p\\d+(\\.\\d+)?");
    }

    /** Call figures' names in the order every table shows them: min, the percentiles rising, max, sd. */
    public static List<String> ordered(Collection<String> names) {
        return names.stream().distinct().sorted(Comparator.comparingDouble(CallFigures::rank)).toList();
    }

    private static double rank(String name) {
        return switch (name) {
            case MIN -> -1;
            case MAX -> 101;
            case SD -> 102;
            default -> isPercentile(name) ? Double.parseDouble(name.substring(1)) : 103;
        };
    }
}

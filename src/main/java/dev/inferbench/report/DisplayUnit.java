package dev.inferbench.report;

import dev.inferbench.stats.Percentiles;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The time unit a group of cells reads in, chosen by the one rule the terminal summary, the reports and the trend
 * share: the largest of s, ms, µs, ns in which the group's typical mean (the lower median of its cells' means) is
 * still at least 1, so the typical figure reads between 1 and 1000 (0.0068 ms shows as 6.8 µs, 23.1 ms stays ms).
 * JMH's score units ("ms/op", "us/op") are converted; anything that is not a time per operation (throughput, "---")
 * is kept as it is.
 */
record DisplayUnit(String label, double factor) {
    private static final List<String> LABELS = List.of("s", "ms", "µs", "ns");

    /**
     * @param jmhUnit the group's JMH unit ("ms/op")
     * @param means   the means of the group's cells, in that unit
     */
    static DisplayUnit choose(String jmhUnit, List<Double> means) {
        double from = Units.seconds(jmhUnit);
        if (Double.isNaN(from) || !jmhUnit.endsWith("/op")) {
            return new DisplayUnit(jmhUnit, 1);
        }
        List<Double> seconds = means.stream().filter(Objects::nonNull).map(m -> m * from)
                .filter(d -> !Double.isNaN(d)).toList();
        // a group without a single mean keeps JMH's own unit
        String label = seconds.isEmpty() ? jmhUnit.substring(0, jmhUnit.length() - 3).replace("us", "µs")
                : label(seconds);
        return new DisplayUnit(label, from / Units.seconds(label));
    }

    /** The rule itself: the label for a group's means given in seconds (at least one, none NaN). */
    static String label(List<Double> seconds) {
        double[] sorted = seconds.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        double typical = Percentiles.atRank(sorted, 50);
        for (int i = 0; i < LABELS.size() - 1; i++) {
            if (typical >= Units.seconds(LABELS.get(i))) {
                return LABELS.get(i);
            }
        }
        return LABELS.get(LABELS.size() - 1);
    }

    /**
     * The unit of one compared figure, by the same rule over both sides' values: a time or a time per something
     * ("ms", "ms/op", "ms/sample") reads in the time unit that fits, keeping what it is per ("µs/op"); any other unit,
     * and a figure without a value other than 0, stays as it is.
     */
    static DisplayUnit ofFigure(String unit, double... values) {
        int slash = unit.indexOf('/');
        double from = Units.seconds(slash < 0 ? unit : unit.substring(0, slash));
        List<Double> seconds = Arrays.stream(values).filter(v -> Double.isFinite(v) && v != 0)
                .mapToObj(v -> Math.abs(v) * from).toList();
        if (Double.isNaN(from) || seconds.isEmpty()) {
            return new DisplayUnit(unit, 1);
        }
        String label = label(seconds);
        return new DisplayUnit(label + (slash < 0 ? "" : unit.substring(slash)), from / Units.seconds(label));
    }

    double convert(double v) {
        return v * factor;
    }
}

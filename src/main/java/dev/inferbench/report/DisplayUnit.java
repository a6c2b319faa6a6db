package dev.inferbench.report;

import java.util.List;

/**
 * The time unit a group of figures reads best in: the largest of s, ms, µs, ns in which the group's smallest
 * figure is still at least 1 (so 0.0068 ms shows as 6.8 µs and 23.1 ms stays ms). JMH's score units ("ms/op",
 * "us/op") are converted; anything that is not a time per operation (throughput, "---") is kept as it is.
 */
record DisplayUnit(String label, double factor) {
    private static final List<String> JMH = List.of("s/op", "ms/op", "us/op", "ns/op");
    private static final List<String> LABELS = List.of("s", "ms", "µs", "ns");

    /** {@code jmhUnit} as given when it is not a time per op; {@code smallest} in that unit. */
    static DisplayUnit choose(String jmhUnit, double smallest) {
        int from = JMH.indexOf(jmhUnit);
        if (from < 0) {
            return new DisplayUnit(jmhUnit, 1);
        }
        for (int to = 0; to < LABELS.size(); to++) {
            double factor = Math.pow(1000, to - from);
            if (smallest * factor >= 1 || to == LABELS.size() - 1) {
                return new DisplayUnit(LABELS.get(to), factor);
            }
        }
        throw new AssertionError("unreachable");
    }

    double convert(double v) {
        return v * factor;
    }
}

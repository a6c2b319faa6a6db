package dev.inferbench.compare;

import java.util.List;
import java.util.Map;

/**
 * One cell of a run, reduced to what compare, thresholds and the variance tool read: its key, JMH mode, its metrics
 * by name (in a stable order: primary first), and when each of its forks ran (in the order of the metrics' forks;
 * empty when the run folder does not say, e.g. a bare JMH JSON file).
 */
public record CellResults(CellKey key, String mode, Map<String, MetricSeries> metrics, List<ForkStamp> stamps) {

    public CellResults(CellKey key, String mode, Map<String, MetricSeries> metrics) {
        this(key, mode, metrics, List.of());
    }

    /** The same cell under another key (params dropped or a mode added by compare's matching). */
    public CellResults withKey(CellKey other) {
        return new CellResults(other, mode, metrics, stamps);
    }
}

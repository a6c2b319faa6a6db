package dev.inferbench.compare;

import java.util.Map;

/**
 * One cell of a run, reduced to what compare, thresholds and the variance tool read: its key, JMH mode, and its
 * metrics by name (in a stable order: primary first).
 */
public record CellResults(CellKey key, String mode, Map<String, MetricSeries> metrics) {
}

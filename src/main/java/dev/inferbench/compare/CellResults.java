package dev.inferbench.compare;

import dev.inferbench.results.MetricCatalogue;
import dev.inferbench.results.MachineState;
import dev.inferbench.results.jmh.JmhMetric;
import dev.inferbench.results.jmh.MeasuredCell;
import dev.inferbench.stats.Percentiles;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One cell of a run, reduced to what compare, thresholds and the variance tool read: its key, JMH mode, its metrics
 * by name (in a stable order: primary first), and when each of its forks ran (in the order of the metrics' forks;
 * empty when the run folder does not say, e.g. a bare JMH JSON file).
 */
public record CellResults(CellKey key, String mode, Map<String, MetricSeries> metrics, List<ForkStamp> stamps) {
    private static final double[] PERCENTILES = {50, 99};

    public CellResults(CellKey key, String mode, Map<String, MetricSeries> metrics) {
        this(key, mode, metrics, List.of());
    }

    /** The same cell under another key (params dropped or a mode added by compare's matching). */
    public CellResults withKey(CellKey other) {
        return new CellResults(other, mode, metrics, stamps);
    }

    /** A cell from the typed JMH reader as the statistics need it: every metric per fork and iteration. */
    static CellResults of(MeasuredCell cell) {
        Map<String, MetricSeries> metrics = new LinkedHashMap<>();
        JmhMetric primary = cell.primary();
        String name = cell.mode().equals("thrpt") ? "throughput" : "time";
        metrics.put(name, MetricSeries.mean(name, primary.unit(), cell.callMeans()));
        if (!primary.histograms().isEmpty()) {
            metrics.put(MeasuredCell.TRIMMED, MetricSeries.mean(MeasuredCell.TRIMMED, primary.unit(), cell.trimmedMeans()));
            List<double[][]> forks = new ArrayList<>();
            for (int f = 0; f < primary.histograms().size(); f++) {
                forks.add(primary.forkBins(f));
            }
            for (double p : PERCENTILES) {
                double[][] perFork = forks.stream()
                        .map(h -> new double[]{new Percentiles(List.<double[][]>of(h)).estimate(p)}).toArray(double[][]::new);
                String pName = "p" + (int) p;
                metrics.put(pName, new MetricSeries(pName, primary.unit(), perFork, p, forks));
            }
        }
        cell.secondary().forEach((label, m) -> {
            // JMH's own per-iteration percentile entries of SampleTime (p0.50 ...): p50/p99 above replace them
            // the machine's figures describe the run's machine, not the code: MachineState compares them
            if (!MeasuredCell.isPercentileEntry(label) && !MachineState.isMachineMetric(label)) {
                metrics.put(label, MetricSeries.mean(label, m.unit(), MetricCatalogue.forkRule(label).forks(m)));
            }
        });
        return new CellResults(new CellKey(cell.benchmark(), cell.params()), cell.mode(), metrics);
    }
}

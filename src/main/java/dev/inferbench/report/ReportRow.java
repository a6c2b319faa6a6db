package dev.inferbench.report;

import dev.inferbench.results.CallFigures;
import dev.inferbench.results.jmh.MeasuredCell;

import java.util.List;
import java.util.Map;

/**
 * One cell of a report as every format shows it: its run, its params, the latency figures in the primary metric's
 * unit, the mean with its interval, samples/s and every secondary metric, and why its figures may not be trusted.
 *
 * @param run      the label of the run (or merged shards) the cell comes from
 * @param cellId   the cell's folder name under {@code forks/}, {@code flames/} and {@code op-profile/}
 * @param calls    the timed calls' figures in the primary metric's unit ({@link CallFigures}: min, the report's
 *                 percentiles, max, sd), NaN where too few calls stand behind one
 * @param extra    secondary metrics by name ({@code samples}, {@code mem.rss.peak}, ...)
 * @param samples  timed calls behind the percentiles (SampleTime), else iterations
 * @param warnings stability warnings, each a short reason
 */
public record ReportRow(String run, String benchmark, String mode, String cellId, Map<String, String> params,
                        String unit, Map<String, Double> calls, double mean, double halfWidth,
                        Map<String, Figure> extra, int forks, long samples, List<String> warnings, MeasuredCell source) {

    /** A secondary metric's value and unit. */
    public record Figure(double value, String unit) {
    }

    /** What groups rows in a table: the model, or the benchmark when there is no model param. */
    public String group() {
        return params.getOrDefault("model", benchmark);
    }

    /** Whether the primary metric is a time per call (smaller is better) rather than a rate. */
    public boolean isTime() {
        return unit.endsWith("/op");
    }

    /** A figure of the timed calls by name ({@code p50}, {@code min}); NaN where the row has none. */
    public double call(String name) {
        return calls.getOrDefault(name, Double.NaN);
    }

    public double samplesPerSecond() {
        return figure(ReportRows.SAMPLES);
    }

    /** A secondary metric's value, NaN where the row has none. */
    public double figure(String metric) {
        Figure f = extra.get(metric);
        return f == null ? Double.NaN : f.value();
    }

    /** Benchmark and params, for names in exports: {@code InferenceBenchmark.infer model=resnet50 batchSize=1}. */
    public String label() {
        StringBuilder sb = new StringBuilder(benchmark);
        params.forEach((k, v) -> sb.append(' ').append(k).append('=').append(v));
        return sb.toString();
    }
}

package dev.inferbench.compare;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.util.Statistics;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/** Turns JMH's result objects of one cell (every fork a BenchmarkResult) into {@link CellResults}. */
public final class ResultCells {
    private static final double[] PERCENTILES = {50, 99};

    private ResultCells() {
    }

    public static CellResults of(RunResult run) {
        BenchmarkParams bp = run.getParams();
        Map<String, String> params = new LinkedHashMap<>();
        bp.getParamsKeys().forEach(k -> params.put(k, bp.getParam(k)));
        List<BenchmarkResult> forks = new ArrayList<>(run.getBenchmarkResults());
        String mode = bp.getMode().shortLabel();
        String unit = run.getPrimaryResult().getScoreUnit();
        Map<String, MetricSeries> metrics = new LinkedHashMap<>();
        String primary = bp.getMode().name().equals("Throughput") ? "throughput" : "time";
        metrics.put(primary, MetricSeries.mean(primary, unit, values(forks, IterationResult::getPrimaryResult)));
        if (mode.equals("sample")) {
            List<double[][]> histograms = forks.stream().map(f -> histogram(f.getPrimaryResult().getStatistics())).toList();
            for (double p : PERCENTILES) {
                String name = "p" + (int) p;
                metrics.put(name, new MetricSeries(name, unit,
                        values(forks, it -> it.getPrimaryResult(), s -> s.getStatistics().getPercentile(p)), p, histograms));
            }
        }
        Set<String> labels = new LinkedHashSet<>();
        forks.forEach(f -> f.getIterationResults().forEach(it -> labels.addAll(it.getSecondaryResults().keySet())));
        for (String label : labels) {
            String secondaryUnit = run.getSecondaryResults().containsKey(label)
                    ? run.getSecondaryResults().get(label).getScoreUnit() : "";
            metrics.put(label, MetricSeries.mean(label, secondaryUnit, values(forks, it -> it.getSecondaryResults().get(label))));
        }
        return new CellResults(new CellKey(bp.getBenchmark(), params), mode, metrics);
    }

    private static double[][] values(List<BenchmarkResult> forks, Function<IterationResult, Result<?>> pick) {
        return values(forks, pick, Result::getScore);
    }

    private static double[][] values(List<BenchmarkResult> forks, Function<IterationResult, Result<?>> pick,
                                     Function<Result<?>, Double> value) {
        double[][] out = new double[forks.size()][];
        for (int f = 0; f < forks.size(); f++) {
            out[f] = forks.get(f).getIterationResults().stream().map(pick).filter(r -> r != null)
                    .mapToDouble(value::apply).toArray();
        }
        return out;
    }

    private static double[][] histogram(Statistics stats) {
        List<double[]> bins = new ArrayList<>();
        for (Iterator<Map.Entry<Double, Long>> it = stats.getRawData(); it.hasNext(); ) {
            Map.Entry<Double, Long> e = it.next();
            bins.add(new double[]{e.getKey(), e.getValue()});
        }
        return bins.toArray(double[][]::new);
    }
}

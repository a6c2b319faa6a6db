package dev.inferbench.compare;

import dev.inferbench.stats.Percentiles;
import dev.inferbench.results.jmh.JmhMetric;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/** A percentile is a figure only with the calls it needs behind it: everywhere else it is n/a, never the maximum. */
class PercentileSupportTest {

    private static JmhMetric metric(double calls) {
        TreeMap<Double, Double> percentiles = new TreeMap<>(Map.of(50.0, 1.0, 99.0, 9.0, 100.0, 10.0));
        return new JmhMetric(1, 0, new double[]{1, 1}, percentiles, "ms/op", List.of(),
                List.of(List.<double[]>of(new double[]{1, calls - 1, 10, 1})));
    }

    @Test
    void theCallsAPercentileNeeds() {
        assertThat(Percentiles.callsFor(50)).isEqualTo(20);
        assertThat(Percentiles.callsFor(90)).isEqualTo(100);
        assertThat(Percentiles.callsFor(99)).isEqualTo(1000);
        assertThat(Percentiles.callsFor(99.9)).isEqualTo(10000);
        assertThat(Percentiles.callsFor(100)).isEqualTo(1);
    }

    @Test
    void summaryAndReportShowAPercentileOnlyWithItsCalls() {
        assertThat(metric(999).supportedPercentile(99)).isNaN();
        assertThat(metric(1000).supportedPercentile(99)).isEqualTo(9.0);
        assertThat(metric(999).supportedPercentile(50)).isEqualTo(1.0);
        assertThat(metric(19).supportedPercentile(50)).isNaN();
        assertThat(metric(2).supportedPercentile(100)).as("the maximum is always the maximum").isEqualTo(10.0);
    }

    @Test
    void compareTakesAPerForkPercentileOnlyWhenEveryForkHasItsCalls() {
        double[][] forks = {{1}, {1}};
        List<double[][]> enough = List.of(new double[][]{{1, 700}, {2, 300}}, new double[][]{{1, 1000}});
        List<double[][]> oneShort = List.of(new double[][]{{1, 700}, {2, 300}}, new double[][]{{1, 999}});
        assertThat(new MetricSeries("p99", "ms/op", forks, 99, enough).supportedPerFork()).isTrue();
        assertThat(new MetricSeries("p99", "ms/op", forks, 99, oneShort).supportedPerFork()).isFalse();
        assertThat(new MetricSeries("p50", "ms/op", forks, 50, oneShort).supportedPerFork()).isTrue();
        assertThat(MetricSeries.mean("time", "ms/op", forks).supportedPerFork()).isTrue();
    }
}

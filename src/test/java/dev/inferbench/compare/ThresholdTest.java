package dev.inferbench.compare;

import org.assertj.core.api.Assertions;
import dev.inferbench.BenchException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ThresholdTest {

    static CellResults cell(String batch, double ms, double samples) {
        double[][] time = {{ms, ms}, {ms, ms}, {ms, ms}};
        double[][] s = {{samples}, {samples}, {samples}};
        List<double[][]> hist = List.of(new double[][]{{ms, 10}}, new double[][]{{ms * 2, 1}});
        return new CellResults(new CellKey("b.Bench.infer", Map.of("batchSize", batch, "model", "m")), "sample",
                Map.of("time", MetricSeries.mean("time", "ms/op", time),
                        "p99", new MetricSeries("p99", "ms/op", time, 99, hist),
                        "samples", MetricSeries.mean("samples", "samples/s", s)));
    }

    @Test
    void parsesSelectorsOperatorsAndSeedStyle() throws BenchException {
        Threshold t = Threshold.parse("batchSize=1:p99<100ms");
        assertThat(t.selector()).isEqualTo(Map.of("batchSize", "1"));
        assertThat(t.metric()).isEqualTo("p99");
        assertThat(t.op()).isEqualTo("<");
        assertThat(t.value()).isEqualTo(100.0);
        assertThat(t.unit()).isEqualTo("ms");
        assertThat(Threshold.parse("samples>40").op()).isEqualTo(">");
        assertThat(Threshold.parse("latency:100ms").op()).isEqualTo("<=");
        assertThat(Threshold.parse("latency:100ms").metric()).isEqualTo("latency");
        assertThat(Threshold.parse("throughput:1000samples/s").op()).isEqualTo(">=");
        assertThat(Threshold.parse("model=m,batchSize=8:p99<=0.2s").selector()).hasSize(2);
    }

    @Test
    void selectorValuesMayHoldColons() throws BenchException {
        Threshold t = Threshold.parse("device=cuda:0:p99<100ms");
        assertThat(t.selector()).isEqualTo(Map.of("device", "cuda:0"));
        assertThat(t.metric()).isEqualTo("p99");
        Threshold seed = Threshold.parse("device=cuda:1,batchSize=8:latency:20ms");
        assertThat(seed.selector()).isEqualTo(Map.of("device", "cuda:1", "batchSize", "8"));
        assertThat(seed.op()).isEqualTo("<=");
        assertThat(seed.value()).isEqualTo(20.0);
    }

    @Test
    void throughputIsTheMainMetricOfAThrptCellAndSamplesOfAnInferenceCell() throws BenchException {
        CellResults thrpt = new CellResults(new CellKey("b.Other.run", Map.of()), "thrpt",
                Map.of("throughput", MetricSeries.mean("throughput", "ops/s", new double[][]{{5}, {5}})));
        assertThat(Gate.check(List.of(Threshold.parse("throughput>1")), List.of(thrpt)))
                .extracting(Gate.Check::actual).containsExactly(5.0);
        assertThat(Gate.check(List.of(Threshold.parse("throughput>1")), List.of(cell("1", 20, 50))))
                .extracting(Gate.Check::actual).containsExactly(50.0);
    }

    @Test
    void timeUnitsConvertForMetricsInPlainTimeUnitsToo() throws BenchException {
        assertThat(Threshold.parse("load.time<0.5s").limitIn("ms")).isEqualTo(500.0);
        assertThat(Threshold.parse("p99<100ms").limitIn("us/op")).isCloseTo(100_000.0, Assertions.within(1e-6));
        assertThatThrownBy(() -> Threshold.parse("mem.rss.peak<1s").limitIn("MiB")).hasMessageContaining("is in s but");
    }

    /** Memory is in MiB; a limit a user writes in decimal MB (10^6 bytes) or GiB converts, exactly. */
    @Test
    void memoryUnitsConvertBetweenDecimalAndBinary() throws BenchException {
        assertThat(Threshold.parse("mem.rss.peak<2000MB").limitIn("MiB")).isCloseTo(2000e6 / 1048576,
                Assertions.within(1e-9));
        assertThat(Threshold.parse("mem.rss.peak<2GiB").limitIn("MiB")).isEqualTo(2048.0);
        assertThat(Threshold.parse("mem.rss.peak<512").limitIn("MiB")).isEqualTo(512.0);
        assertThatThrownBy(() -> Threshold.parse("mem.rss.peak<5ms").limitIn("MiB")).hasMessageContaining("is in ms but");
    }

    @Test
    void badThresholdsSayWhatIsExpected() {
        assertThatThrownBy(() -> Threshold.parse("p99")).hasMessageContaining("expected [param=value");
        assertThatThrownBy(() -> Threshold.parse("p99<fast")).hasMessageContaining("not understood");
        assertThatThrownBy(() -> Threshold.parse("weird.metric:3")).hasMessageContaining("direction of 'weird.metric' is unknown");
    }

    @Test
    void convertsTimeUnitsAndChecksSelectedCells() throws BenchException {
        List<CellResults> cells = List.of(cell("1", 20, 50), cell("8", 150, 53));
        List<Gate.Check> checks = Gate.check(List.of(Threshold.parse("batchSize=1:p99<0.05s"),
                Threshold.parse("samples>51"), Threshold.parse("latency:100ms")), cells);
        // a p99 of 11 calls is their largest, not a p99: the check fails and says so instead of passing on 40 ms
        assertThat(checks).extracting(Gate.Check::passed).containsExactly(false, false, true, true, false);
        assertThat(checks.get(0).limit()).isEqualTo(50.0);
        assertThat(checks.get(0).actual()).isNaN();
        assertThat(checks.get(0).line()).startsWith("FAIL batchSize=1:p99<0.05s: infer batchSize=1 model=m = n/a (too few"
                + " calls for the percentile)");
    }

    @Test
    void aThresholdThatSelectsNothingIsBadInput() {
        assertThatThrownBy(() -> Gate.check(List.of(Threshold.parse("batchSize=2:p99<1ms")), List.of(cell("1", 1, 1))))
                .isInstanceOf(BenchException.class).hasMessageContaining("selects no cell");
        assertThatThrownBy(() -> Gate.check(List.of(Threshold.parse("samples>1MB")), List.of(cell("1", 1, 1))))
                .hasMessageContaining("is in MB but samples is in samples/s");
    }
}

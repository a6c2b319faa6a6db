package dev.inferbench.report;

import org.junit.jupiter.api.Test;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.AxesChartStyler;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Honest axes: rates, sizes and times from 0 to a round number; latency percentiles on a nines axis. */
class PlotAxesTest {
    private static Map<String, Plots.Plot> plots() throws Exception {
        return Plots.of(ReportInput.load(List.of(ReportsTest.runA())).rows()).stream()
                .collect(Collectors.toMap(Plots.Plot::name, Function.identity()));
    }

    @Test
    void ratesTimesAndBarsStartAtZeroAndEndOnARoundNumber() throws Exception {
        Map<String, Plots.Plot> plots = plots();
        XYChart throughput = (XYChart) plots.get("resnet-tiny-throughput-vs-batch").chart();
        assertThat(throughput.getStyler().getYAxisMin()).as("samples/s axis starts at").isEqualTo(0.0);
        double top = Arrays.stream(throughput.getSeriesCollection().iterator().next().getYData()).max().orElseThrow();
        assertThat(top).isEqualTo(4212, within(1.0));
        // 4212 samples/s: the axis ends at 4500, not at the point (a tick at the data's own value)
        assertThat(throughput.getStyler().getYAxisMax()).isEqualTo(4500.0);
        XYChart latency = (XYChart) plots.get("resnet-tiny-latency-vs-batch").chart();
        assertThat(latency.getStyler().getYAxisMin()).isEqualTo(0.0);
        CategoryChart means = (CategoryChart) plots.get("resnet-tiny-means").chart();
        assertThat(means.getStyler().getYAxisMin()).isEqualTo(0.0);
        // the tallest bar with its interval fits under the axis's end
        assertThat(means.getStyler().getYAxisMax()).isGreaterThanOrEqualTo(817.6 + 6670);
    }

    @Test
    void roundEnds() {
        assertThat(PlotAxes.roundUp(4212)).isEqualTo(4500);
        assertThat(PlotAxes.roundUp(1310)).isEqualTo(1500);
        assertThat(PlotAxes.roundUp(386)).isEqualTo(400);
        assertThat(PlotAxes.roundUp(1000)).isEqualTo(1000);
        assertThat(PlotAxes.roundUp(8.19)).isEqualTo(9, within(1e-9));
        assertThat(PlotAxes.roundUp(0.0464)).isEqualTo(0.05, within(1e-12));
    }

    @Test
    void percentilesAreOnANinesAxisUpToWhatTheCallsSupport() throws Exception {
        XYChart chart = (XYChart) plots().get("resnet-tiny-percentiles").chart();
        Map<String, double[]> xs = chart.getSeriesCollection().stream()
                .collect(Collectors.toMap(XYSeries::getName, XYSeries::getXData));
        // p0, p50, p90 and (243 calls; p95 needs 200) p95; not p99, which needs 1,000 calls
        assertThat(xs.get("batchSize=1")).containsExactly(new double[]{0, Math.log10(2), 1, Math.log10(20)},
                within(1e-12));
        // 191 calls: no p95
        assertThat(xs.get("batchSize=2")).containsExactly(new double[]{0, Math.log10(2), 1}, within(1e-12));
        AxesChartStyler st = chart.getStyler();
        // a linear 0-100 axis would put p90 at 90 and end at 100
        assertThat(st.getXAxisMin()).isEqualTo(0.0);
        assertThat(st.getXAxisMax()).isEqualTo(2.0);
        Function<Double, String> label = st.getXAxisTickLabelsFormattingFunction();
        assertThat(List.of(0.0, 1.0, 2.0, 3.0, 4.0).stream().map(label).toList())
                .containsExactly("0", "90", "99", "99.9", "99.99");
        assertThat(label.apply(0.5)).isBlank();
        assertThat(PlotAxes.nines(99.9)).isEqualTo(3, within(1e-9));
        assertThat(PlotAxes.P50).isEqualTo(0.30103, within(1e-5));
        // 165 us to 505 us: a linear latency axis from 0
        assertThat(st.isYAxisLogarithmic()).isFalse();
        assertThat(st.getYAxisMin()).isEqualTo(0.0);
    }
}

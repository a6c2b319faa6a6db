package dev.inferbench.report;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ModelScalingTest {

    private static ReportRow cell(String model, int batch, double meanMs, double params, double gmacs) {
        double samples = batch / meanMs * 1000;
        return new ReportRow("run", "InferenceBenchmark.infer", "sample", model + batch,
                Map.of("model", model, "engine", "ort", "batchSize", Integer.toString(batch)), "ms/op",
                Map.of("p50", meanMs, "p90", meanMs, "p99", meanMs), meanMs, 0.1, Map.of("samples", new ReportRow.Figure(samples, "samples/s"),
                "model.params", new ReportRow.Figure(params, "params"),
                "model.macs", new ReportRow.Figure(gmacs, "GMAC/sample"),
                "model.size", new ReportRow.Figure(params * 4 / 1048576, "MiB"),
                "gmacs", new ReportRow.Figure(gmacs * samples, "GMAC/s")), 3, 100, List.of(), null);
    }

    @Test
    void aRowPerModelWithItsSizeBesideItsSpeed() {
        List<ReportRow> cells = List.of(cell("big", 1, 25, 25e6, 4.1), cell("big", 8, 160, 25e6, 4.1),
                cell("small", 1, 2, 3.5e6, 0.3), cell("small", 8, 8, 3.5e6, 0.3));
        List<ModelScaling.Row> rows = ModelScaling.rows(cells);
        assertThat(rows).extracting(ModelScaling.Row::model).containsExactly("small", "big"); // by MACs
        ModelScaling.Row big = rows.get(1);
        assertThat(big.latencyMs()).isEqualTo(25.0);
        assertThat(big.batch()).isEqualTo(1);
        assertThat(big.bestBatch()).isEqualTo(8);
        assertThat(big.bestSamples()).isEqualTo(50.0);
        assertThat(big.gmacPerSecond()).isEqualTo(4.1 * 50);
        assertThat(rows.get(0).perSampleMs()).isEqualTo(2.0);
        assertThat(ModelScaling.plots(cells)).hasSize(2);
    }

    @Test
    void oneModelIsNoScaling() {
        assertThat(ModelScaling.rows(List.of(cell("only", 1, 25, 25e6, 4.1), cell("only", 8, 160, 25e6, 4.1)))).isEmpty();
        assertThat(ModelScaling.plots(List.of(cell("only", 1, 25, 25e6, 4.1)))).isEmpty();
    }
}

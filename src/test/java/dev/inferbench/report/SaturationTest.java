package dev.inferbench.report;

import dev.inferbench.results.CellSummary;
import dev.inferbench.stats.Interval;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class SaturationTest {

    private static CellSummary cell(String model, int batch, double samples) {
        return new CellSummary("InferenceBenchmark.infer", Map.of("model", model, "engine", "ort",
                "batchSize", Integer.toString(batch)), "ms/op", 1, 2, new Interval(1, 0.9, 1.1, 0.95, 3), samples);
    }

    @Test
    void namesTheSmallestBatchNoLargerOneBeatsByTenPercent() {
        List<CellSummary> cells = new ArrayList<>(List.of(cell("a", 16, 1310), cell("a", 1, 833), cell("a", 4, 918),
                cell("a", 64, 1280), cell("b", 1, 100), cell("b", 8, 250), cell("c", 1, 5)));
        List<String> lines = BatchFindings.saturation(cells);
        assertThat(lines).containsExactly(
                "throughput: a on ort saturates at batch 16 (no larger batch serves 10 % more; samples/s by batch"
                        + " 1: 833.0, 4: 918.0, 16: 1310, 64: 1280)",
                "throughput: b on ort still rises at batch 8 (+150 % over batch 1; samples/s by batch 1: 100.0, 8: 250.0)");
    }

    /** One cell read twice (two runs in one list) is one batch size, not a series from batch 1 to batch 1. */
    @Test
    void aBatchSizeTwiceIsNoSeries() {
        assertThat(BatchFindings.saturation(List.of(cell("a", 1, 302533), cell("a", 1, 210014)))).isEmpty();
    }

    @Test
    void aDipThenARiseIsNotSaturation() {
        // batch 4 is barely above 1, but 16 is far above both: saturation is judged against every larger batch
        List<String> lines = BatchFindings.saturation(List.of(cell("a", 1, 100), cell("a", 4, 105), cell("a", 16, 200)));
        assertThat(lines).containsExactly("throughput: a on ort still rises at batch 16 (+90 % over batch 4; samples/s"
                + " by batch 1: 100.0, 4: 105.0, 16: 200.0)");
    }
}

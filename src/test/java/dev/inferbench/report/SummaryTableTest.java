package dev.inferbench.report;

import dev.inferbench.stats.Interval;
import dev.inferbench.results.CellSummary;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class SummaryTableTest {

    private static Map<String, String> params(String model, String batch) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("batchSize", batch);
        p.put("device", "cpu");
        p.put("engine", "ort");
        p.put("model", model);
        p.put("threads", "0");
        return p;
    }

    @Test
    void matchesGoldenFile() throws IOException {
        List<CellSummary> cells = List.of(
                new CellSummary("InferenceBenchmark.infer", params("resnet50", "1"), "ms/op", 22.97, 28.86,
                        new Interval(23.1234, 23.1234 - 0.3456, 23.1234 + 0.3456, 0.95, 5), 43.27),
                new CellSummary("InferenceBenchmark.infer", params("resnet50", "8"), "ms/op", 171.2, 190.44,
                        new Interval(172.55, 172.55 - 2.1, 172.55 + 2.1, 0.95, 5), 46.36),
                new CellSummary("InferenceBenchmark.infer", params("mlp-tiny", "1"), "ms/op", 0.0037, 0.0204,
                        new Interval(0.0061, Double.NaN, Double.NaN, 0.95, 1), Double.NaN));
        String golden;
        try (InputStream in = getClass().getResourceAsStream("/golden/summary.txt")) {
            golden = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(SummaryTable.render(cells)).isEqualTo(golden);
    }

    @Test
    void benchmarkColumnOnlyWhenSeveral() {
        CellSummary a = new CellSummary("A.x", Map.of("model", "m"), "ms/op", 1, 2, new Interval(1, 0.9, 1.1, 0.95, 3), 5);
        CellSummary b = new CellSummary("B.y", Map.of("model", "m"), "ms/op", 1, 2, new Interval(1, 0.9, 1.1, 0.95, 3), 5);
        assertThat(SummaryTable.render(List.of(a))).doesNotContain("benchmark");
        assertThat(SummaryTable.render(List.of(a, b))).startsWith("benchmark").contains("A.x").contains("B.y");
        assertThat(SummaryTable.render(List.of())).isEqualTo("no results\n");
    }

    /** The gap pairs the end-to-end cell with the inference cell of the same model file (fp32) and engine. */
    @Test
    void endToEndGapPairsTheFp32InferenceCell() {
        Map<String, String> e2e = Map.of("model", "resnet50", "engine", "ort", "batchSize", "1");
        Map<String, String> int8 = new LinkedHashMap<>(e2e);
        int8.put("precision", "int8");
        Map<String, String> fp32 = new LinkedHashMap<>(e2e);
        fp32.put("precision", "fp32");
        List<CellSummary> cells = List.of(
                new CellSummary("EndToEndBenchmark.request", e2e, "ms/op", 30, 40, new Interval(30, 29, 31, 0.95, 3), 1),
                new CellSummary("InferenceBenchmark.infer", int8, "ms/op", 10, 12, new Interval(10, 9, 11, 0.95, 3), 1),
                new CellSummary("InferenceBenchmark.infer", fp32, "ms/op", 20, 25, new Interval(20, 19, 21, 0.95, 3), 1));
        String table = SummaryTable.render(cells);
        assertThat(table).contains("end-to-end (pre-processing + inference + post-processing) vs inference only");
        String gapRow = table.lines().filter(l -> l.startsWith("resnet50") && l.contains("%") && l.contains("33.3%"))
                .findFirst().orElseThrow(() -> new AssertionError(table));
        assertThat(gapRow).contains("30.00").contains("20.00").contains("10.00");
    }
}

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
}

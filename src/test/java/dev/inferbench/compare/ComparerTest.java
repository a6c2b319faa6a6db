package dev.inferbench.compare;

import dev.inferbench.BenchException;
import dev.inferbench.report.CompareHtml;
import dev.inferbench.report.CompareJson;
import dev.inferbench.report.CompareTable;
import dev.inferbench.stats.Verdict;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ComparerTest {

    /** Five forks of two iterations around {@code ms}, spread 1 %, with a samples/s metric and an unknown one. */
    static CellResults cell(String batch, double ms, String mode, String unit) {
        double[][] time = new double[5][];
        double[][] samples = new double[5][];
        double[][] odd = new double[5][];
        for (int f = 0; f < 5; f++) {
            double v = ms * (1 + 0.01 * (f - 2));
            time[f] = new double[]{v, v};
            samples[f] = new double[]{1000 / v};
            odd[f] = new double[]{f};
        }
        Map<String, MetricSeries> metrics = new java.util.LinkedHashMap<>();
        metrics.put("time", MetricSeries.mean("time", unit, time));
        metrics.put("samples", MetricSeries.mean("samples", "samples/s", samples));
        metrics.put("odd.metric", MetricSeries.mean("odd.metric", "things", odd));
        return new CellResults(new CellKey("b.Bench.infer", Map.of("batchSize", batch)), mode, metrics);
    }

    @Test
    void directionAwareVerdictsAndOneSidedCells() throws BenchException {
        Comparer.Report r = Comparer.compare(
                List.of(cell("1", 20, "avgt", "ms/op"), cell("2", 30, "avgt", "ms/op"), cell("8", 150, "avgt", "ms/op")),
                List.of(cell("1", 22, "avgt", "ms/op"), cell("2", 30.1, "avgt", "ms/op"), cell("16", 300, "avgt", "ms/op")),
                0.03, 0.95);
        Map<String, Comparison> byMetric1 = new java.util.HashMap<>();
        r.rows().stream().filter(c -> c.cell().params().get("batchSize").equals("1")).forEach(c -> byMetric1.put(c.metric(), c));
        assertThat(byMetric1.get("time").verdictWord()).isEqualTo("slower");
        assertThat(byMetric1.get("samples").verdict()).isEqualTo(Verdict.WORSE);
        assertThat(byMetric1.get("samples").verdictWord()).isEqualTo("worse");
        assertThat(byMetric1.get("odd.metric").verdictWord()).isEqualTo("direction unknown");
        assertThat(r.rows().stream().filter(c -> c.cell().params().get("batchSize").equals("2") && c.metric().equals("time"))
                .findFirst().orElseThrow().verdict()).isEqualTo(Verdict.SAME);
        assertThat(r.onlyBaseline()).extracting(CellKey::label).containsExactly("infer batchSize=8");
        assertThat(r.onlyCandidate()).extracting(CellKey::label).containsExactly("infer batchSize=16");
        assertThat(r.anyWorse()).isTrue();
    }

    @Test
    void differentModesUnitsOrNoMatchAreBadInput() {
        assertThatThrownBy(() -> Comparer.compare(List.of(cell("1", 20, "avgt", "ms/op")),
                List.of(cell("1", 20, "sample", "ms/op")), 0.03, 0.95)).hasMessageContaining("mode avgt in the baseline but sample");
        assertThatThrownBy(() -> Comparer.compare(List.of(cell("1", 20, "avgt", "ms/op")),
                List.of(cell("1", 20, "avgt", "us/op")), 0.03, 0.95)).hasMessageContaining("in ms/op in the baseline but us/op");
        assertThatThrownBy(() -> Comparer.compare(List.of(cell("1", 20, "avgt", "ms/op")),
                List.of(cell("2", 20, "avgt", "ms/op")), 0.03, 0.95)).hasMessageContaining("no cell of the baseline matches");
    }

    @Test
    void outputFormatsMatchGoldenFiles() throws BenchException, IOException {
        Comparer.Report r = Comparer.compare(List.of(cell("1", 20, "avgt", "ms/op"), cell("8", 150, "avgt", "ms/op")),
                List.of(cell("1", 22, "avgt", "ms/op"), cell("16", 300, "avgt", "ms/op")), 0.03, 0.95);
        ByteArrayOutputStream json = new ByteArrayOutputStream();
        CompareJson.write(r, json);
        assertThat(CompareTable.text(r)).isEqualTo(golden("compare.txt"));
        assertThat(CompareTable.markdown(r)).isEqualTo(golden("compare.md"));
        assertThat(json.toString(StandardCharsets.UTF_8)).isEqualTo(golden("compare.json"));
        StringWriter html = new StringWriter();
        CompareHtml.write(r, "results/base", "results/head", html);
        assertThat(html.toString()).isEqualTo(golden("compare.html"));
    }

    static String golden(String name) throws IOException {
        try (InputStream in = ComparerTest.class.getResourceAsStream("/golden/" + name)) {
            return in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}

package dev.inferbench.report;

import dev.inferbench.generate.GenerationFigures;
import dev.inferbench.results.CellSummary;
import dev.inferbench.results.jmh.JmhMetric;
import dev.inferbench.results.jmh.MeasuredCell;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The generation plots through the report's own path (rows of measured cells, {@link Plots#of}): TTFT against prompt
 * length with a line per engine and batch, output tokens/s against batch with a line per engine and prompt length, each
 * point the cell's mean over its forks (which were 0.95 and 1.05 of it); and, where the run has one value on an axis, no plot but a line saying why.
 */
class GenerationPlotsTest {

    private static JmhMetric perFork(String unit, double... forks) {
        List<List<Double>> raw = Arrays.stream(forks).mapToObj(v -> List.of(v, v)).toList();
        return new JmhMetric(Arrays.stream(forks).average().orElseThrow(), 0, new double[]{0, 0}, new TreeMap<>(), unit,
                raw, List.of());
    }

    /** TTFT grows with the prompt (0.002 ms a token) and the batch; tokens/s with the batch; djl-ort 10 % slower. */
    private static MeasuredCell cell(String engine, int batch, int prompt) {
        double slow = engine.equals("ort") ? 1 : 1.1;
        double ttft = (0.05 + 0.002 * prompt) * batch * slow;
        double tokens = 10_000 * batch / slow / (1 + prompt / 100.0);
        Map<String, String> params = new LinkedHashMap<>();
        params.put("batchSize", Integer.toString(batch));
        params.put("engine", engine);
        params.put("model", "llama-tiny");
        params.put("outputLen", "8");
        params.put("promptLen", Integer.toString(prompt));
        params.put("threads", "0");
        Map<String, JmhMetric> secondary = new LinkedHashMap<>();
        secondary.put(GenerationFigures.TTFT, perFork("ms", ttft * 0.95, ttft * 1.05));
        secondary.put(GenerationFigures.OUTPUT_TOKENS, perFork("tokens/s", tokens, tokens));
        return new MeasuredCell("dev.inferbench.bench.GenerationBenchmark.request", "avgt", 1, 2, params,
                perFork("ms/op", ttft * 3, ttft * 3), secondary, Map.of());
    }

    private static List<ReportRow> rows(List<String> engines, List<Integer> batches, List<Integer> prompts) {
        List<ReportRow> rows = new ArrayList<>();
        for (String e : engines) {
            for (int b : batches) {
                for (int p : prompts) {
                    rows.add(ReportRows.of("run", cell(e, b, p)));
                }
            }
        }
        return rows;
    }

    private static XYChart chart(List<Plots.Plot> plots, String name) {
        return plots.stream().filter(p -> p.name().equals(name)).map(p -> (XYChart) p.chart()).findFirst()
                .orElseThrow(() -> new AssertionError(name + " missing from " + plots.stream().map(Plots.Plot::name).toList()));
    }

    private static List<String> names(XYChart chart) {
        return chart.getSeriesCollection().stream().map(XYSeries::getName).toList();
    }

    @Test
    void ttftByPromptLengthAndTokensPerSecondByBatchALinePerSetting() {
        List<ReportRow> rows = rows(List.of("ort", "djl-ort"), List.of(1, 4), List.of(16, 64));
        List<Plots.Plot> plots = Plots.of(rows);

        XYChart ttft = chart(plots, "llama-tiny" + GenerationPlots.TTFT_SUFFIX);
        assertThat(ttft.getXAxisTitle()).isEqualTo("prompt length (tokens)");
        assertThat(ttft.getYAxisTitle()).isEqualTo("TTFT (ms)");
        assertThat(names(ttft))
                .containsExactlyInAnyOrder("ort, batch 1", "ort, batch 4", "djl-ort, batch 1", "djl-ort, batch 4");
        XYSeries ort4 = ttft.getSeries("ort, batch 4");
        assertThat(ort4.getXData()).containsExactly(16.0, 64.0);
        assertThat(ort4.getYData()[0]).isCloseTo((0.05 + 0.002 * 16) * 4, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(ort4.getYData()[1]).isCloseTo((0.05 + 0.002 * 64) * 4, org.assertj.core.data.Offset.offset(1e-9));

        XYChart tokens = chart(plots, "llama-tiny" + GenerationPlots.TOKENS_SUFFIX);
        assertThat(tokens.getXAxisTitle()).isEqualTo("batch size");
        assertThat(tokens.getYAxisTitle()).isEqualTo("output tokens/s");
        assertThat(names(tokens))
                .containsExactlyInAnyOrder("ort, prompt 16", "ort, prompt 64", "djl-ort, prompt 16", "djl-ort, prompt 64");
        XYSeries djl16 = tokens.getSeries("djl-ort, prompt 16");
        assertThat(djl16.getXData()).containsExactly(1.0, 4.0);
        assertThat(djl16.getYData()[1]).isCloseTo(10_000 * 4 / 1.1 / 1.16, org.assertj.core.data.Offset.offset(1e-6));

        List<CellSummary> cells = rows.stream().map(r -> CellSummary.of(r.source())).toList();
        assertThat(GenerationTable.table(cells).lines()).noneMatch(l -> l.contains("not drawn"));
    }

    @Test
    void oneValueOnAnAxisNoPlotButTheReason() {
        List<ReportRow> rows = rows(List.of("ort"), List.of(1), List.of(16, 64));
        List<String> names = Plots.of(rows).stream().map(Plots.Plot::name).toList();
        assertThat(names).contains("llama-tiny" + GenerationPlots.TTFT_SUFFIX)
                .doesNotContain("llama-tiny" + GenerationPlots.TOKENS_SUFFIX);
        XYChart ttft = chart(Plots.of(rows), "llama-tiny" + GenerationPlots.TTFT_SUFFIX);
        assertThat(names(ttft)).containsExactly("ort"); // nothing else varies: named by its engine
        List<String> lines = GenerationTable.table(rows.stream().map(r -> CellSummary.of(r.source())).toList()).lines();
        assertThat(lines).contains("plot of output tokens/s vs batch size for llama-tiny not drawn: every cell has"
                + " batchSize 1 (give two or more: -p batchSize=1,4)");
        assertThat(lines).noneMatch(l -> l.contains("TTFT vs prompt length"));
    }
}

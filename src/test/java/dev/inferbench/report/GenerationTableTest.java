package dev.inferbench.report;

import dev.inferbench.results.MetricCatalogue;
import dev.inferbench.generate.GenerationFigures;
import dev.inferbench.results.CellSummary;
import dev.inferbench.stats.Direction;
import dev.inferbench.stats.Interval;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The generation section in the terminal and Markdown (golden files), and which way its figures improve. */
class GenerationTableTest {

    private static CellSummary cell(String batch, String prompt, double ttft, double tpot, double itl50, double itl90,
                                    int forks) {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("batchSize", batch);
        params.put("device", "cpu");
        params.put("engine", "ort");
        params.put("model", "smollm2_135m");
        params.put("outputLen", "64");
        params.put("promptLen", prompt);
        params.put("threads", "0");
        Map<String, Double> extras = new LinkedHashMap<>();
        extras.put(GenerationFigures.TTFT, ttft);
        extras.put(CellSummary.halfWidth(GenerationFigures.TTFT), forks > 1 ? ttft / 10 : Double.NaN);
        extras.put(GenerationFigures.TPOT, tpot);
        extras.put(CellSummary.halfWidth(GenerationFigures.TPOT), forks > 1 ? tpot / 20 : Double.NaN);
        extras.put(GenerationFigures.itl(50), itl50);
        if (forks > 1) { // the cells of 3 forks had the requests a p99 needs; the one of 1 fork had not
            extras.put(GenerationFigures.percentile(GenerationFigures.TTFT, 99), ttft * 1.5);
            extras.put(GenerationFigures.percentile(GenerationFigures.TPOT, 99), tpot * 1.25);
        }
        if (!Double.isNaN(itl90)) {
            extras.put(GenerationFigures.itl(90), itl90);
        }
        double e2e = ttft + 63 * tpot;
        extras.put(GenerationFigures.E2E, e2e);
        extras.put(GenerationFigures.OUTPUT_TOKENS, Integer.parseInt(batch) * 64 / (e2e / 1e3));
        extras.put(GenerationFigures.TOTAL_TOKENS, Integer.parseInt(batch) * (64.0 + Integer.parseInt(prompt)) / (e2e / 1e3));
        extras.put(GenerationFigures.KV_BYTES, 46080.0);
        extras.put(GenerationFigures.PREFILL_SHARE, 100 * ttft / e2e);
        return new CellSummary("GenerationBenchmark.request", params, "ms/op", Double.NaN, Double.NaN,
                new Interval(e2e, e2e * 0.9, e2e * 1.1, 0.95, forks), Double.NaN, extras);
    }

    private static final List<CellSummary> CELLS = List.of(cell("4", "512", 1724, 30.6, 30.1, Double.NaN, 1),
            cell("1", "512", 603.6, 18.9, 15.8, 16.9, 3), cell("1", "128", 153.1, 14.5, 13.2, 14.0, 3),
            new CellSummary("InferenceBenchmark.infer", Map.of("model", "resnet50"), "ms/op", 1, 1,
                    new Interval(1, 1, 1, 0.95, 1), 1, Map.of()));

    @Test
    void terminalAndMarkdownMatchTheirGoldenFiles() throws Exception {
        String text = GenerationTable.render(CELLS);
        // generation cells only, sorted by batch then prompt; n/a where a figure has no interval or too few gaps
        assertThat(text).doesNotContain("resnet50").contains("1724 ± n/a").contains("153.1 ± 15.31");
        assertThat(text.indexOf("153.1")).isLessThan(text.indexOf("603.6"));
        matchesGolden(text, "generation.txt");
        StringWriter md = new StringWriter();
        try (PrintWriter out = new PrintWriter(md)) {
            GenerationTable.table(CELLS).markdown(out);
        }
        matchesGolden(md.toString(), "generation.md");
    }

    /** A cell of {@code cell}'s with other params: a prompt file, a users count. */
    private static CellSummary with(CellSummary c, Map<String, String> more) {
        Map<String, String> params = new LinkedHashMap<>(c.params());
        params.putAll(more);
        return new CellSummary(c.benchmark(), params, c.unit(), c.p50(), c.p99(), c.mean(), c.samplesPerSecond(),
                c.extras());
    }

    @Test
    void aPromptFileCellClaimsNoPromptLenWhichItDidNotUse() {
        // JMH records promptLen's default, 128, in a cell run with a prompt file, whose prompts gave the lengths
        List<CellSummary> prompted = List.of(with(cell("1", "128", 153.1, 14.5, 13.2, 14.0, 3),
                Map.of("prompts", "prompts.jsonl")), with(cell("4", "128", 353.1, 18.5, 17.2, 18.0, 3),
                Map.of("prompts", "prompts.jsonl")));
        String summary = SummaryTable.render(prompted);
        assertThat(summary).contains("every cell: ").contains("prompts=prompts.jsonl").doesNotContain("promptLen")
                .contains("every generation cell: ");
        StringWriter md = new StringWriter();
        try (PrintWriter out = new PrintWriter(md)) {
            GenerationTable.table(prompted).markdown(out);
        }
        assertThat(md.toString()).contains("prompts=prompts.jsonl").doesNotContain("promptLen");

        // beside a cell of seeded prompts the column stays, empty for the prompt file's cell
        String mixed = GenerationTable.render(List.of(prompted.get(0), cell("1", "128", 150.0, 14.0, 13.0, 14.0, 3)));
        assertThat(mixed).contains("promptLen");
        String fileRow = mixed.lines().filter(l -> l.contains("prompts.jsonl")).findFirst().orElseThrow();
        assertThat(fileRow).doesNotContain("128");
    }

    /** As ComparerTest's: {@code -Dgolden.update=true} writes the actual output over the golden file (review the diff). */
    private static void matchesGolden(String actual, String name) throws java.io.IOException {
        java.nio.file.Path file = java.nio.file.Path.of("src/test/resources/golden", name);
        if (Boolean.getBoolean("golden.update")) {
            java.nio.file.Files.writeString(file, actual);
        }
        assertThat(actual).isEqualTo(java.nio.file.Files.exists(file) ? java.nio.file.Files.readString(file) : "");
    }

    @Test
    void aRunWithoutGenerationCellsHasNoSection() {
        assertThat(GenerationTable.render(CELLS.subList(3, 4))).isEmpty();
    }

    @Test
    void latenciesGoDownTokensPerSecondUpSharesDescribe() {
        assertThat(MetricCatalogue.of(GenerationFigures.TTFT, "ms").direction()).isEqualTo(Direction.LOWER_IS_BETTER);
        assertThat(MetricCatalogue.of(GenerationFigures.itl(99), "ms").direction()).isEqualTo(Direction.LOWER_IS_BETTER);
        assertThat(MetricCatalogue.of(GenerationFigures.OUTPUT_TOKENS, "tokens/s").direction()).isEqualTo(Direction.HIGHER_IS_BETTER);
        assertThat(MetricCatalogue.of(GenerationFigures.PREFILL_SHARE, "%").direction()).isEqualTo(Direction.UNKNOWN);
        assertThat(MetricCatalogue.of(GenerationFigures.TPOT, "ms").speed()).isTrue();
        assertThat(MetricCatalogue.of(GenerationFigures.TOTAL_TOKENS, "tokens/s").speed()).isFalse();
    }
}

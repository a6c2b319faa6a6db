package dev.inferbench.report;

import dev.inferbench.results.CellSummary;
import dev.inferbench.results.jmh.JmhJson;
import dev.inferbench.results.jmh.MeasuredCell;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

/** The terminal summary and the report show a cell in the same unit: one rule ({@link DisplayUnit}) for both. */
class UnitRuleTest {
    /**
     * A SampleTime cell whose median call is below 1 µs and whose mean is above it (a tenth of its calls take 10 µs):
     * the summary's old rule (smallest p50) chose ns for it while the report's (median of means) chose µs.
     */
    private static final String STRADDLING = """
            [ { "benchmark" : "dev.inferbench.bench.InferenceBenchmark.infer", "mode" : "sample", "threads" : 1,
                "forks" : 2, "params" : { "model" : "add-one", "engine" : "ort", "batchSize" : "1" },
                "primaryMetric" : { "score" : 1.81, "scoreError" : 0.0, "scoreConfidence" : [ 1.81, 1.81 ],
                  "scorePercentiles" : { "50.0" : 0.9, "99.0" : 10.0, "100.0" : 10.0 }, "scoreUnit" : "us/op",
                  "rawDataHistogram" : [ [ [ [ 0.9, 90 ], [ 10.0, 10 ] ] ], [ [ [ 0.9, 90 ], [ 10.0, 10 ] ] ] ] },
                "secondaryMetrics" : { } } ]
            """;

    @Test
    void summaryAndReportChooseOneUnitForOneCell() throws Exception {
        MeasuredCell cell = JmhJson.read(new ByteArrayInputStream(STRADDLING.getBytes(StandardCharsets.UTF_8)),
                "straddling").get(0);
        CellSummary summary = CellSummary.of(cell);
        assertThat(summary.p50()).as("p50 in us").isLessThan(1);
        assertThat(summary.mean().estimate()).as("mean in us").isGreaterThan(1);

        DisplayUnit inSummary = SummaryTable.units(List.of(summary)).get(SummaryTable.groupOf(summary));
        String inReport = Units.choose(List.of(ReportRows.of("run", cell)));

        assertThat(inSummary.label()).isEqualTo(inReport).isEqualTo("µs");
        assertThat(SummaryTable.render(List.of(summary))).contains("µs").doesNotContain(" ns");
    }

    @Test
    void theRuleReadsTheTypicalMeanBetweenOneAndAThousand() {
        assertThat(DisplayUnit.label(List.of(6.8e-6))).isEqualTo("µs");
        assertThat(DisplayUnit.label(List.of(0.0231))).isEqualTo("ms");
        assertThat(DisplayUnit.label(List.of(2.5))).isEqualTo("s");
        assertThat(DisplayUnit.label(List.of(4e-10))).isEqualTo("ns");
        // the lower median, not the smallest: one fast cell does not turn a group of milliseconds into µs
        assertThat(DisplayUnit.label(List.of(5e-6, 0.02, 0.03))).isEqualTo("ms");
        assertThat(DisplayUnit.choose("ms/op", List.of(0.0068)).label()).isEqualTo("µs");
        assertThat(DisplayUnit.choose("ms/op", List.of(0.0068)).convert(0.0068)).isCloseTo(6.8, offset(1e-9));
        assertThat(DisplayUnit.choose("ops/s", List.of(12.0)).label()).isEqualTo("ops/s");
    }
}

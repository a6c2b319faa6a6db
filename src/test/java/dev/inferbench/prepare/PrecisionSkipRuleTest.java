package dev.inferbench.prepare;

import dev.inferbench.config.BenchConfig;
import dev.inferbench.cell.Cell;
import dev.inferbench.run.Plan;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PrecisionSkipRuleTest {
    private static final String REASON = "engine 'djl-pytorch' renders zoo models from their fp32 weights; precision"
            + " fp16/int8 variants run on ort and djl-ort";

    private static Map<String, String> cell(String engine, String precision) {
        return Map.of("model", "/nowhere/mlp-tiny.onnx", "engine", engine, "precision", precision, "device", "cpu", "batchSize", "1");
    }

    @Test
    void djlPyTorchVariantsAreSkippedWithOneReason() throws Exception {
        BenchConfig config = BenchConfig.parse("");
        PrecisionSkipRule rule = new PrecisionSkipRule();
        assertThat(rule.skipReason(cell("djl-pytorch", "fp16"), config)).contains(REASON);
        assertThat(rule.skipReason(cell("djl-pytorch", "int8"), config)).contains(REASON);
        assertThat(rule.skipReason(cell("djl-pytorch", "fp32"), config)).isEmpty();
        for (String engine : new String[]{"ort", "djl-ort"}) {
            for (String precision : new String[]{"fp32", "fp16", "int8"}) {
                assertThat(rule.skipReason(cell(engine, precision), config)).as(engine + " " + precision).isEmpty();
            }
        }
        assertThat(rule.skipReason(Map.of("engine", "djl-pytorch"), config)).as("no precision param").isEmpty();
        assertThatThrownBy(() -> rule.skipReason(cell("djl-pytorch", "fp8"), config))
                .hasMessageStartingWith("unknown precision 'fp8'");
    }

    /** The planner asks the rule: the cell is listed as skipped before any fork starts. */
    @Test
    void thePlannerSkipsTheCellsBeforeJmhStarts() throws Exception {
        String model = "/nowhere/model.onnx"; // the fixed-batch rule leaves a missing file to the matrix check
        List<Cell> cells = List.of(
                new Cell("InferenceBenchmark.infer", "avgt", Map.of("model", model, "engine", "djl-pytorch",
                        "precision", "int8", "device", "cpu", "batchSize", "1")),
                new Cell("InferenceBenchmark.infer", "avgt", Map.of("model", model, "engine", "ort",
                        "precision", "int8", "device", "cpu", "batchSize", "1")));
        List<Plan.Skipped> skipped = Planner.skipped(cells, BenchConfig.parse(""), SkipRules.ALL);
        assertThat(skipped).singleElement().satisfies(s -> {
            assertThat(s.cell()).isEqualTo(cells.get(0));
            assertThat(s.reason()).isEqualTo(REASON);
        });
    }
}

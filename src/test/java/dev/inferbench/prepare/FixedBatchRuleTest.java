package dev.inferbench.prepare;

import dev.inferbench.config.BenchConfig;
import dev.inferbench.model.Mlp;
import dev.inferbench.model.OnnxExporter;
import ai.onnx.proto.OnnxMl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class FixedBatchRuleTest {

    @Test
    void otherBatchSizesOfAFixedBatchFileAreSkipped(@TempDir Path dir) throws Exception {
        OnnxMl.ModelProto.Builder m = new OnnxExporter(1).export(Mlp.tiny().build()).toBuilder();
        var input = m.getGraphBuilder().getInputBuilder(0).getTypeBuilder().getTensorTypeBuilder().getShapeBuilder();
        input.setDim(0, OnnxMl.TensorShapeProto.Dimension.newBuilder().setDimValue(1));
        Path file = dir.resolve("fixed batch.onnx");
        Files.write(file, m.build().toByteArray());
        BenchConfig config = BenchConfig.parse("");
        FixedBatchRule rule = new FixedBatchRule();

        assertThat(rule.skipReason(Map.of("model", file.toString(), "batchSize", "1"), config)).isEmpty();
        assertThat(rule.skipReason(Map.of("model", file.toString(), "batchSize", "8"), config)).contains(
                "model '" + file + "' input 'input' fixes the batch at 1; batchSize 8 cannot run (batchSize=1 does)");
        Path dynamic = dir.resolve("dynamic.onnx");
        Files.write(dynamic, new OnnxExporter(1).export(Mlp.tiny().build()).toByteArray());
        assertThat(rule.skipReason(Map.of("model", dynamic.toString(), "batchSize", "8"), config)).isEmpty();

        // dynamic batching runs every batch from 1 to batchSize: a fixed batch skips it even at batchSize=fixed
        assertThat(rule.skipReason(Map.of("model", file.toString(), "batchSize", "1", "batchWaitMs", "2"), config))
                .contains("model '" + file + "' input 'input' fixes the batch at 1; dynamic batching (batchWaitMs=2)"
                        + " runs every batch from 1 to 1 (batchWaitMs=off does not)");
        assertThat(rule.skipReason(Map.of("model", file.toString(), "batchSize", "1", "batchWaitMs", "off"), config))
                .isEmpty();
        assertThat(rule.skipReason(Map.of("model", dynamic.toString(), "batchSize", "8", "batchWaitMs", "2"), config))
                .isEmpty();
        // the planner asks the rule with the cell's own params: a serving cell's batching reaches it
        dev.inferbench.cell.Cell serving = new dev.inferbench.cell.Cell("dev.inferbench.bench.ServingBenchmark.step",
                "ss", Map.of("model", file.toString(), "batchSize", "1", "batchWaitMs", "2", "rate", "10"));
        assertThat(SkipRules.reason(serving, config, SkipRules.ALL)).get().asString().contains("dynamic batching");
    }

    @Test
    void aStateWhoseFirstDimensionIsItsLayersFixesNoBatch(@TempDir Path dir) throws Exception {
        // x [batch, 4] and h [2, ?, 3]: the model takes any batch, and h's 2 is its layers (Silero VAD v5's state)
        Path file = dev.inferbench.model.DynamicModels.recurrent(dir.resolve("v5.onnx"), false);
        assertThat(dev.inferbench.model.stats.OnnxSummary.read(file).fixedBatches()).isEmpty();
        assertThat(new FixedBatchRule().skipReason(Map.of("model", file.toString(), "batchSize", "1"),
                BenchConfig.parse(""))).isEmpty();
    }
}

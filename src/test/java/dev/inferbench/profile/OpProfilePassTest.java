package dev.inferbench.profile;

import dev.inferbench.results.RunLayout;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.model.OnnxExporter;
import dev.inferbench.model.ResNet;
import dev.inferbench.variant.Precision;
import dev.inferbench.variant.Variants;
import dev.inferbench.cell.Cell;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The operator profile runs the file the cell ran (its int8 variant), and inference-only ort cells only. */
class OpProfilePassTest {

    @Test
    void anInt8CellIsProfiledOnItsVariantAndOtherBenchmarksAreLeftOut(@TempDir Path dir) throws Exception {
        Path model = dir.resolve("r.onnx");
        try (OutputStream out = Files.newOutputStream(model)) {
            new OnnxExporter(7).write(ResNet.tiny().build(), out);
        }
        Variants.ensure("r", model, Precision.INT8, Map.of(), 1, new PrintStream(OutputStream.nullOutputStream()));
        BenchConfig config = BenchConfig.parse("model.r.file=" + model + "\n");
        Map<String, String> params = Map.of("model", "r", "engine", "ort", "batchSize", "1", "precision", "int8");
        Cell int8 = new Cell("dev.inferbench.bench.InferenceBenchmark.infer", "sample", params);
        Cell endToEnd = new Cell("dev.inferbench.bench.EndToEndBenchmark.request", "sample", params);
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        OpProfilePass.run(List.of(int8, endToEnd), config, dir.resolve("run"), new PrintStream(printed, true));

        String ops = Files.readString(dir.resolve("run").resolve(RunLayout.OP_PROFILE).resolve(int8.id()).resolve("ops.json"));
        assertThat(ops).containsPattern("QLinearConv|QuantizeLinear|DequantizeLinear");
        assertThat(dir.resolve("run").resolve(RunLayout.OP_PROFILE).resolve(endToEnd.id())).doesNotExist();
        assertThat(printed.toString()).contains("ORT operator profile of").doesNotContain("EndToEndBenchmark");
    }
}

package dev.inferbench.prepare;

import dev.inferbench.config.BenchConfig;
import dev.inferbench.model.Llama;
import dev.inferbench.model.Mlp;
import dev.inferbench.model.OnnxExporter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class GenerationSkipRuleTest {
    @TempDir
    Path dir;

    private Path write(dev.inferbench.model.Architecture arch) throws Exception {
        Path file = dir.resolve(arch.name() + ".onnx");
        try (OutputStream out = Files.newOutputStream(file)) {
            new OnnxExporter(1).write(arch.build(), out);
        }
        return file;
    }

    @Test
    void skipsDjlPyTorchAndModelsThatAreNoDecoderAndRunsDecoders() throws Exception {
        BenchConfig config = BenchConfig.parse("");
        GenerationSkipRule rule = new GenerationSkipRule();
        String decoder = write(Llama.tiny()).toString();
        String mlp = write(Mlp.tiny()).toString();
        assertThat(rule.appliesTo("dev.inferbench.bench.GenerationBenchmark.request")).isTrue();
        assertThat(rule.appliesTo("dev.inferbench.bench.PlainOrtLoopBenchmark.request")).isTrue();
        assertThat(rule.appliesTo("dev.inferbench.bench.InferenceBenchmark.infer")).isFalse();
        assertThat(rule.skipReason(Map.of("model", decoder, "engine", "ort"), config)).isEmpty();
        assertThat(rule.skipReason(Map.of("model", decoder, "engine", "djl-ort"), config)).isEmpty();
        assertThat(rule.skipReason(Map.of("model", decoder, "engine", "djl-pytorch"), config).orElseThrow())
                .startsWith("engine 'djl-pytorch' cannot run decoders");
        assertThat(rule.skipReason(Map.of("model", mlp, "engine", "ort"), config).orElseThrow())
                .startsWith(mlp + " has no KV-cache inputs");
    }
}

package dev.inferbench.config;

import dev.inferbench.BenchException;
import dev.inferbench.model.Zoo;
import dev.inferbench.model.stats.ModelStats;

import java.nio.file.Path;
import java.util.Map;

/**
 * One model of the registry: where its ONNX file is, whether inferbench generates it ({@code zoo} not null), and
 * per-sample input shapes for inputs whose non-batch dimensions the file leaves dynamic.
 */
public record ModelEntry(String name, Path file, Zoo zoo, Map<String, long[]> inputs) {

    /** Statistics of the model (parameters, MACs per sample at {@code seqLen}, operators); zoo graphs count exactly. */
    public ModelStats stats(int seqLen) throws BenchException {
        return ModelStats.of(name, file, zoo != null ? zoo.architecture().build() : null, inputs, seqLen);
    }
}

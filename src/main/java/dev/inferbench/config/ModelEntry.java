package dev.inferbench.config;

import dev.inferbench.BenchException;
import dev.inferbench.model.Zoo;
import dev.inferbench.model.stats.ModelStats;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One model of the registry: where its ONNX file is, whether inferbench generates it ({@code zoo} not null), and
 * per-sample input shapes for inputs whose non-batch dimensions the file leaves dynamic.
 *
 * @param inputs per-sample shapes (batch left out) by input name, and sizes by symbolic dimension name
 */
public record ModelEntry(String name, Path file, Zoo zoo, Map<String, long[]> inputs) {

    /** The entry with a cell's own shapes ({@code -p shape}) over the registry's: a name given in both takes the cell's. */
    public ModelEntry withShapes(Map<String, long[]> shapes) {
        if (shapes.isEmpty()) {
            return this;
        }
        Map<String, long[]> merged = new LinkedHashMap<>(inputs);
        merged.putAll(shapes);
        return new ModelEntry(name, file, zoo, merged);
    }

    /** Statistics of the model (parameters, MACs per sample at {@code seqLen}, operators); zoo graphs count exactly. */
    public ModelStats stats(int seqLen) throws BenchException {
        return ModelStats.of(name, file, zoo != null ? zoo.architecture().build() : null, inputs, seqLen);
    }
}

package dev.inferbench.config;

import dev.inferbench.model.Zoo;

import java.nio.file.Path;
import java.util.Map;

/**
 * One model of the registry: where its ONNX file is, whether inferbench generates it ({@code zoo} not null), and
 * per-sample input shapes for inputs whose non-batch dimensions the file leaves dynamic.
 */
public record ModelEntry(String name, Path file, Zoo zoo, Map<String, long[]> inputs) {
}

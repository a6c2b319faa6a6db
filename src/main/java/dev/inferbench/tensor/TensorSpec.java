package dev.inferbench.tensor;

import java.util.Arrays;

/** A model input or output as the model declares it; {@code -1} marks a dynamic dimension (usually the batch). */
public record TensorSpec(String name, DType type, long[] shape) {

    public enum DType { FLOAT32, INT64, INT32, OTHER }

    @Override
    public String toString() {
        return name + ":" + type.name().toLowerCase(java.util.Locale.ROOT) + Arrays.toString(shape);
    }
}

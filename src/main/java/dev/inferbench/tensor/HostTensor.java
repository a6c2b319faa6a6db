package dev.inferbench.tensor;

import dev.inferbench.tensor.TensorSpec.DType;

import java.nio.Buffer;

/** An input batch in Java-owned direct memory, before an engine converts it. {@code shape} includes the batch. */
public record HostTensor(String name, DType type, long[] shape, Buffer data) {
}

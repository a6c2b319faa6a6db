package dev.inferbench.engine;

import dev.inferbench.tensor.TensorSpec;
import java.util.List;

/** The inputs and outputs of a loaded model, in the model's order. */
public record ModelSignature(List<TensorSpec> inputs, List<TensorSpec> outputs) {
}

package dev.inferbench.prepare;

import dev.inferbench.BenchException;
import dev.inferbench.input.InputValues;
import dev.inferbench.tensor.TensorSpec;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The names a cell's {@code -p shape} and {@code -p values} give, against the model's inputs: a typo would otherwise
 * set nothing and measure the file's defaults under the cell's label, or fail in every fork.
 */
final class CellInputs {
    private CellInputs() {
    }

    static void checkNames(String model, List<TensorSpec> inputs, Map<String, long[]> shapes, InputValues values)
            throws BenchException {
        Set<String> inputNames = new LinkedHashSet<>();
        Set<String> dimNames = new LinkedHashSet<>();
        for (TensorSpec spec : inputs) {
            inputNames.add(spec.name());
            for (int i = 0; i < spec.shape().length; i++) {
                if (!spec.dimName(i).isEmpty()) {
                    dimNames.add(spec.dimName(i));
                }
            }
        }
        for (Map.Entry<String, long[]> e : shapes.entrySet()) {
            String name = e.getKey();
            if (inputNames.contains(name)) {
                continue;
            }
            if (!dimNames.contains(name)) {
                throw new BenchException("shape names '" + name + "', which model '" + model + "' has neither as an"
                        + " input nor as a dimension; expected an input of " + inputNames + " or a dimension of "
                        + dimNames);
            }
            if (e.getValue().length != 1) {
                throw new BenchException("shape gives dimension '" + name + "' of model '" + model + "' the shape "
                        + String.join("x", Arrays.stream(e.getValue()).mapToObj(Long::toString).toList())
                        + "; expected one size, e.g. " + name + ":" + e.getValue()[0]);
            }
        }
        for (String name : values.rules().keySet()) {
            if (!inputNames.contains(name)) {
                throw new BenchException("values names '" + name + "', which is not an input of model '" + model
                        + "'; expected one of " + inputNames);
            }
        }
    }
}

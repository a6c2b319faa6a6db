package dev.inferbench.bench;

import dev.inferbench.BenchException;
import dev.inferbench.engine.Outputs;

import java.util.Arrays;

/** The sanity check a trial runs once before measuring: outputs exist, are batched, and hold finite numbers. */
final class OutputCheck {
    private OutputCheck() {
    }

    static void verify(String model, Outputs outputs, int batch) throws BenchException {
        try (outputs) {
            if (outputs.count() == 0) {
                throw new BenchException("model '" + model + "' produced no outputs");
            }
            long[] shape = outputs.shape(0);
            if (shape.length == 0 || shape[0] != batch) {
                throw new BenchException("model '" + model + "' output 0 has shape " + Arrays.toString(shape)
                        + "; expected a first dimension of " + batch + " (the batch)");
            }
            for (float v : outputs.floats(0)) {
                if (!Float.isFinite(v)) {
                    throw new BenchException("model '" + model + "' output 0 holds " + v + "; expected finite values");
                }
            }
        }
    }
}

package dev.inferbench.bench;

import dev.inferbench.BenchException;
import dev.inferbench.engine.ModelSignature;
import dev.inferbench.engine.Outputs;
import dev.inferbench.model.InputShapes;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * The sanity check a trial runs once before measuring: outputs exist, are batched, and hold finite numbers. Output 0
 * has the batch first, unless the file names its first dimension as no input's batch (openWakeWord's melspectrogram
 * is {@code [time, 1, ?, 32]}): then only its values are checked.
 */
final class OutputCheck {
    private OutputCheck() {
    }

    static void verify(String model, Outputs outputs, int batch, ModelSignature signature) throws BenchException {
        try (outputs) {
            if (outputs.count() == 0) {
                throw new BenchException("model '" + model + "' produced no outputs");
            }
            long[] shape = outputs.shape(0);
            if (batchedFirst(signature) && (shape.length == 0 || shape[0] != batch)) {
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

    /** Whether output 0's first dimension is the batch: unnamed, or named as an input's batch dimension. */
    static boolean batchedFirst(ModelSignature signature) {
        if (signature.outputs().isEmpty() || signature.outputs().get(0).shape().length == 0) {
            return true;
        }
        String first = signature.outputs().get(0).dimName(0);
        if (first.isEmpty()) {
            return true;
        }
        Set<String> batchNames = new HashSet<>();
        InputShapes.batchAxes(signature.inputs()).forEach((name, axis) -> signature.inputs().stream()
                .filter(s -> s.name().equals(name) && s.shape().length > axis).map(s -> s.dimName(axis))
                .forEach(batchNames::add));
        return batchNames.contains(first);
    }
}

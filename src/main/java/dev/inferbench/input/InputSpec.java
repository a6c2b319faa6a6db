package dev.inferbench.input;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a cell's input batch is made from: the model (its name for messages, its file for the vocabulary and data
 * checks, the registry's per-sample shapes for dimensions the file leaves open), the batch size, tokens per sample
 * and the seed. Made by the typed cell ({@code cell.CellSpec#inputs()}); the synthetic inputs, the data sources and
 * the probes take it whole.
 *
 * @param perSample per-sample input shapes (batch left out) by input name, sizes by dimension name: the registry's
 *                  {@code model.NAME.inputs} with the cell's {@code -p shape} over it
 * @param values    what inputs hold instead of the synthetic default ({@code -p values})
 */
public record InputSpec(String model, Path file, Map<String, long[]> perSample, int batchSize, int seqLen, long seed,
                        InputValues values) {

    public InputSpec {
        perSample = Collections.unmodifiableMap(new LinkedHashMap<>(perSample));
    }

    /** Synthetic values for every input. */
    public InputSpec(String model, Path file, Map<String, long[]> perSample, int batchSize, int seqLen, long seed) {
        this(model, file, perSample, batchSize, seqLen, seed, InputValues.DEFAULT);
    }

    /** The same inputs at another batch size (a model file that fixes its batch, the fidelity probe's samples). */
    public InputSpec withBatchSize(int batch) {
        return new InputSpec(model, file, perSample, batch, seqLen, seed, values);
    }

    /** Other samples of the same kind (the fidelity probe's batches after the first). */
    public InputSpec withSeed(long other) {
        return new InputSpec(model, file, perSample, batchSize, seqLen, other, values);
    }
}

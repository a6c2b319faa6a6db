package dev.inferbench.prepare;

import dev.inferbench.BenchException;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.model.stats.OnnxSummary;
import dev.inferbench.serve.ServingSpec;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Skips the cells of a model whose file fixes the batch dimension at another size than the cell's batchSize (many
 * exported models declare {@code [1, 3, 224, 224]}): that model runs only at its own batch. Files that are missing
 * or broken are left to the matrix check, which reports them as bad input. A serving cell with dynamic batching
 * ({@code batchWaitMs}) runs every batch up to its batchSize, so any fixed batch skips it.
 */
public final class FixedBatchRule implements SkipRule {

    /** A serving cell with dynamic batching runs every batch from 1 to its batchSize: a fixed batch skips it. */
    @Override
    public Optional<String> skipReason(CellSpec cell, Map<String, String> params) throws BenchException {
        Optional<String> own = skipReason(cell);
        if (own.isPresent() || Double.isNaN(ServingSpec.batchWaitMs(params))) {
            return own;
        }
        return fixed(cell).stream().findFirst().map(f -> "model '" + cell.modelName() + "' input '" + f.input()
                + "' fixes the batch at " + f.batch() + "; dynamic batching (batchWaitMs="
                + params.get(ServingSpec.BATCH_WAIT_MS) + ") runs every batch from 1 to " + cell.batchSize()
                + " (batchWaitMs=off does not)");
    }

    @Override
    public Optional<String> skipReason(CellSpec cell) {
        return fixed(cell).stream().filter(f -> f.batch() != cell.batchSize()).findFirst().map(f -> "model '"
                + cell.modelName() + "' input '" + f.input() + "' fixes the batch at " + f.batch() + "; batchSize "
                + cell.batchSize() + " cannot run (batchSize=" + f.batch() + " does)");
    }

    private static List<OnnxSummary.FixedBatch> fixed(CellSpec cell) {
        if (!Files.isRegularFile(cell.modelFile())) {
            return List.of();
        }
        try {
            return OnnxSummary.read(cell.modelFile()).fixedBatches();
        } catch (BenchException unreadable) {
            return List.of();
        }
    }
}

package dev.inferbench.prepare;

import dev.inferbench.BenchException;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.model.stats.OnnxSummary;

import java.nio.file.Files;
import java.util.List;
import java.util.Optional;

/**
 * Skips the cells of a model whose file fixes the batch dimension at another size than the cell's batchSize (many
 * exported models declare {@code [1, 3, 224, 224]}): that model runs only at its own batch. Files that are missing
 * or broken are left to the matrix check, which reports them as bad input.
 */
public final class FixedBatchRule implements SkipRule {

    @Override
    public Optional<String> skipReason(CellSpec cell) {
        if (!Files.isRegularFile(cell.modelFile())) {
            return Optional.empty();
        }
        List<OnnxSummary.FixedBatch> fixed;
        try {
            fixed = OnnxSummary.read(cell.modelFile()).fixedBatches();
        } catch (BenchException unreadable) {
            return Optional.empty();
        }
        return fixed.stream().filter(f -> f.batch() != cell.batchSize()).findFirst().map(f -> "model '" + cell.modelName() + "' input '"
                + f.input() + "' fixes the batch at " + f.batch() + "; batchSize " + cell.batchSize()
                + " cannot run (batchSize=" + f.batch() + " does)");
    }
}

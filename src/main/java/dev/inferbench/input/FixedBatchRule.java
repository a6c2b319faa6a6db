package dev.inferbench.input;

import ai.onnx.proto.OnnxMl;
import dev.inferbench.BenchException;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.config.ModelEntry;
import dev.inferbench.model.stats.OnnxSummary;
import dev.inferbench.run.SkipRule;

import java.nio.file.Files;
import java.util.Map;
import java.util.Optional;

/**
 * Skips the cells of a model whose file fixes the batch dimension at another size than the cell's batchSize (many
 * exported models declare {@code [1, 3, 224, 224]}): that model runs only at its own batch. Files that are missing
 * or broken are left to the matrix check, which reports them as bad input.
 */
public final class FixedBatchRule implements SkipRule {

    @Override
    public Optional<String> skipReason(Map<String, String> params, BenchConfig config) throws BenchException {
        String model = params.get("model");
        String batch = params.get("batchSize");
        if (model == null || batch == null) {
            return Optional.empty();
        }
        ModelEntry entry = config.model(model);
        if (!Files.isRegularFile(entry.file())) {
            return Optional.empty();
        }
        OnnxSummary summary;
        try {
            summary = OnnxSummary.read(entry.file());
        } catch (BenchException unreadable) {
            return Optional.empty();
        }
        for (OnnxMl.ValueInfoProto input : summary.inputs()) {
            long[] dims = OnnxSummary.dims(input, null);
            if (dims.length > 0 && dims[0] > 0 && !Long.toString(dims[0]).equals(batch.trim())) {
                return Optional.of("model '" + model + "' input '" + input.getName() + "' fixes the batch at "
                        + dims[0] + "; batchSize " + batch.trim() + " cannot run (batchSize=" + dims[0] + " does)");
            }
        }
        return Optional.empty();
    }
}

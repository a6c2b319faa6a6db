package dev.inferbench.prepare;

import dev.inferbench.BenchException;
import dev.inferbench.config.ModelEntry;
import dev.inferbench.engine.DecoderLayout;
import dev.inferbench.generate.FitsContext;
import dev.inferbench.generate.GenerationSpec;
import dev.inferbench.tensor.TensorSpec.DType;

import java.nio.file.Path;
import java.util.Collection;
import java.util.Optional;

/**
 * A generation cell's model and lengths, checked before JMH starts: the file has a decoder's KV-cache layout (or one
 * line says what it lacks), and each cell's prompt and output fit the context the file declares.
 */
final class GenerationCheck {
    private GenerationCheck() {
    }

    /** @return the file's layout, for what the launcher says about it */
    static DecoderLayout check(ModelEntry entry, Collection<FitsContext> cells) throws BenchException {
        DecoderLayout layout;
        try {
            layout = DecoderLayout.of(entry.file());
        } catch (BenchException e) {
            throw new BenchException("model '" + entry.name() + "' cannot be benchmarked by " + benchmark(cells) + ": "
                    + e.getMessage(), e);
        }
        for (FitsContext cell : cells) {
            cell.check(layout, entry.name(), entry.file());
        }
        return layout;
    }

    /**
     * What {@code precision=fp32} means for a decoder whose file is not float32 (an fp16 export given by path): the
     * file as it is, not a float32 run; empty for a float32 file.
     */
    static Optional<String> asIsLine(DecoderLayout layout, Path file) {
        if (layout.cacheType() == DType.FLOAT32 && layout.logitsType() == DType.FLOAT32) {
            return Optional.empty();
        }
        String cache = layout.cacheType().label();
        return Optional.of("[inferbench] " + file + " is a " + cache + " decoder (caches " + cache + ", logits "
                + layout.logitsType().label() + "): its cells' precision=fp32 runs the file as it is, in " + cache);
    }

    private static String benchmark(Collection<FitsContext> cells) {
        return cells.stream().allMatch(c -> c instanceof GenerationSpec) ? "GenerationBenchmark"
                : "GenerationLoadBenchmark";
    }
}

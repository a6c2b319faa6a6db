package dev.inferbench.prepare;

import dev.inferbench.BenchException;
import dev.inferbench.config.ModelEntry;
import dev.inferbench.engine.DecoderLayout;
import dev.inferbench.generate.FitsContext;
import dev.inferbench.generate.GenerationSpec;

import java.util.Collection;

/**
 * A generation cell's model and lengths, checked before JMH starts: the file has a decoder's KV-cache layout (or one
 * line says what it lacks), and each cell's prompt and output fit the context the file declares.
 */
final class GenerationCheck {
    private GenerationCheck() {
    }

    static void check(ModelEntry entry, Collection<FitsContext> cells) throws BenchException {
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
    }

    private static String benchmark(Collection<FitsContext> cells) {
        return cells.stream().allMatch(c -> c instanceof GenerationSpec) ? "GenerationBenchmark"
                : "GenerationLoadBenchmark";
    }
}

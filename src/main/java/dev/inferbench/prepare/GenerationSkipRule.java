package dev.inferbench.prepare;

import dev.inferbench.BenchException;
import dev.inferbench.cell.BenchmarkNames;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.engine.DecoderLayout;

import java.util.Optional;

/**
 * Skips generation cells (GenerationBenchmark, GenerationLoadBenchmark, and the plain-loop reference) that cannot run: on an engine without
 * cached generation (djl-pytorch: the zoo's renderer has no decoder ops), or on a model that is no decoder when the
 * run also measures the model otherwise (a run of every benchmark crosses GenerationBenchmark with every model, so
 * these are skips; a run of generation cells alone refuses such a model as bad input, in MatrixCheck).
 */
public final class GenerationSkipRule implements SkipRule {
    @Override
    public boolean appliesTo(String benchmark) {
        return BenchmarkNames.inClass(benchmark, BenchmarkNames.GENERATION)
                || BenchmarkNames.inClass(benchmark, BenchmarkNames.GENERATION_LOAD)
                || BenchmarkNames.inClass(benchmark, BenchmarkNames.PLAIN_ORT_LOOP);
    }

    @Override
    public Optional<String> skipReason(CellSpec cell) {
        Optional<String> engine = cell.engine().generationRefusal();
        if (engine.isPresent()) {
            return engine;
        }
        try {
            DecoderLayout.of(cell.modelFile());
            return Optional.empty();
        } catch (BenchException notADecoder) {
            return Optional.of(notADecoder.getMessage());
        }
    }
}

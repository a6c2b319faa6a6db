package dev.inferbench.prepare;

import dev.inferbench.BenchException;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.engine.DecoderLayout;

import java.util.List;
import java.util.Optional;

/**
 * Skips generation cells (GenerationBenchmark, and its plain-loop reference) that cannot run: on an engine without
 * cached generation (djl-pytorch: the zoo's renderer has no decoder ops), or on a model that is no decoder when the
 * run also measures the model otherwise (a run of every benchmark crosses GenerationBenchmark with every model, so
 * these are skips; a run of generation cells alone refuses such a model as bad input, in MatrixCheck).
 */
public final class GenerationSkipRule implements SkipRule {
    /** By name: library code does not depend on the benchmarks (src/jmh). */
    static final List<String> BENCHMARK_CLASSES = List.of("dev.inferbench.bench.GenerationBenchmark",
            "dev.inferbench.bench.PlainOrtLoopBenchmark");

    @Override
    public boolean appliesTo(String benchmark) {
        return BENCHMARK_CLASSES.stream().anyMatch(c -> benchmark.startsWith(c + "."));
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

package dev.inferbench.prepare;

import dev.inferbench.cell.CellSpec;

import java.util.Optional;

/**
 * Skips GenerationBenchmark's cells on an engine that cannot run cached generation (djl-pytorch: the zoo's renderer
 * has no decoder ops). A run crossing GenerationBenchmark with every engine is not bad input, so these are skips.
 */
public final class GenerationSkipRule implements SkipRule {
    /** By name: library code does not depend on the benchmarks (src/jmh). */
    static final String BENCHMARK_CLASS = "dev.inferbench.bench.GenerationBenchmark";

    @Override
    public boolean appliesTo(String benchmark) {
        return benchmark.startsWith(BENCHMARK_CLASS + ".");
    }

    @Override
    public Optional<String> skipReason(CellSpec cell) {
        return cell.engine().generationRefusal();
    }
}

package dev.inferbench.prepare;

import dev.inferbench.cell.CellSpec;
import dev.inferbench.engine.EngineKind;
import dev.inferbench.metrics.TrainingProfiler;

import java.util.Optional;

/**
 * Skips TrainingBenchmark's cells that cannot train: on an engine that computes no gradients (ONNX Runtime's
 * sessions), or on a TorchScript file (training renders a zoo model from its graph). A run of every benchmark crosses
 * TrainingBenchmark with every engine, so these are skips, not bad input.
 */
public final class TrainingSkipRule implements SkipRule {

    @Override
    public boolean appliesTo(String benchmark) {
        return TrainingProfiler.isTraining(benchmark);
    }

    @Override
    public Optional<String> skipReason(CellSpec cell) {
        Optional<String> engine = cell.engine().trainingRefusal();
        if (engine.isPresent() || !EngineKind.isTorchScript(cell.modelFile())) {
            return engine;
        }
        return Optional.of("TrainingBenchmark trains zoo models rendered from their graph, not a TorchScript file;"
                + " expected a zoo model name");
    }
}

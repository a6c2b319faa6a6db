package dev.inferbench.prepare;

import dev.inferbench.engine.EngineKind;
import dev.inferbench.metrics.TrainingProfiler;

import dev.inferbench.BenchException;
import dev.inferbench.cell.Cell;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.config.BenchConfig;

import java.util.List;
import java.util.Optional;

/** Every {@link SkipRule} the planner asks, in order; the first reason given wins. Add a rule here to add one. */
public final class SkipRules {
    public static final List<SkipRule> ALL = List.of(new DeviceSkipRule(), new PrecisionSkipRule(),
            new FixedBatchRule(), new SpinSkipRule());

    private SkipRules() {
    }

    static Optional<String> reason(Cell cell, BenchConfig config, List<SkipRule> rules) throws BenchException {
        if (!CellSpec.isModelCell(cell.params())) {
            return Optional.empty(); // a benchmark without a model has nothing to skip
        }
        CellSpec spec = CellSpec.of(cell.params(), config); // once for all rules
        if (TrainingProfiler.isTraining(cell.benchmark())) {
            // a run of every benchmark crosses TrainingBenchmark with engines that cannot train: skipped, not refused
            try {
                spec.engine().checkTrainable();
            } catch (BenchException noGradients) {
                return Optional.of(noGradients.getMessage());
            }
            if (EngineKind.isTorchScript(spec.modelFile())) {
                return Optional.of("TrainingBenchmark trains zoo models rendered from their graph, not a TorchScript"
                        + " file; expected a zoo model name");
            }
        }
        for (SkipRule rule : rules) {
            Optional<String> why = rule.skipReason(spec);
            if (why.isPresent()) {
                return why;
            }
        }
        return Optional.empty();
    }
}

package dev.inferbench.prepare;

import dev.inferbench.BenchException;
import dev.inferbench.cell.Cell;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.config.BenchConfig;

import java.util.List;
import java.util.Optional;

/** Every {@link SkipRule} the planner asks, in order; the first reason given wins. Add a rule here to add one. */
public final class SkipRules {
    public static final List<SkipRule> ALL = List.of(new DeviceSkipRule(), new PrecisionSkipRule(),
            new FixedBatchRule(), new SpinSkipRule(), new TrainingSkipRule(),
            new GenerationSkipRule());

    private SkipRules() {
    }

    static Optional<String> reason(Cell cell, BenchConfig config, List<SkipRule> rules) throws BenchException {
        if (!CellSpec.isModelCell(cell.params())) {
            return Optional.empty(); // a benchmark without a model has nothing to skip
        }
        CellSpec spec = CellSpec.of(cell.params(), config); // once for all rules
        for (SkipRule rule : rules) {
            Optional<String> why = rule.appliesTo(cell.benchmark()) ? rule.skipReason(spec, cell.params()) : Optional.empty();
            if (why.isPresent()) {
                return why;
            }
        }
        return Optional.empty();
    }
}

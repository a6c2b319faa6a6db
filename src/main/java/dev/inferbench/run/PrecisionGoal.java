package dev.inferbench.run;

import dev.inferbench.BenchException;
import dev.inferbench.cell.Cell;
import dev.inferbench.results.CellSummary;
import dev.inferbench.stats.Interval;
import dev.inferbench.stats.StoppingRule;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

/** {@code --precision P}: whether a cell's interval is narrow enough to need no more forks, and the closing lines. */
final class PrecisionGoal {
    private final RunStore store;
    private final OptionalDouble goal;

    PrecisionGoal(RunStore store, OptionalDouble goal) {
        this.store = store;
        this.goal = goal;
    }

    /** With --precision: the cell's interval is already narrow enough, so it needs no more forks. */
    boolean reached(Cell cell) {
        if (goal.isEmpty()) {
            return false;
        }
        Optional<Interval> mean = mean(cell);
        return mean.isPresent() && StoppingRule.precise(mean.get(), goal.getAsDouble());
    }

    /** The half-width of the cell's interval over its mean, from the run's one interval (NaN without forks). */
    private double relativeError(Cell cell) {
        return mean(cell).map(Interval::relativeError).orElse(Double.NaN);
    }

    /** The cell's mean with its interval, as the summary gives it; empty before its first fork. */
    private Optional<Interval> mean(Cell cell) {
        try {
            return store.result().cell(cell).map(c -> CellSummary.of(c).mean());
        } catch (BenchException e) {
            return Optional.empty();
        }
    }

    void report(List<Cell> cells, Map<Cell, Set<Integer>> landed, Map<Cell, String> failed,
                                 Progress progress) {
        if (goal.isEmpty()) {
            return;
        }
        double wanted = goal.getAsDouble();
        for (Cell cell : cells) {
            if (failed.containsKey(cell)) {
                continue;
            }
            double rel = relativeError(cell);
            progress.println(String.format(Locale.ROOT, "[inferbench] %s: ±%.1f%% after %d fork%s (%s ±%.1f%%)",
                    cell.label(), rel * 100, landed.get(cell).size(), landed.get(cell).size() == 1 ? "" : "s",
                    rel <= wanted ? "reached" : "did not reach", wanted * 100));
        }
    }
}

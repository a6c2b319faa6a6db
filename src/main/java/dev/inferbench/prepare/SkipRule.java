package dev.inferbench.prepare;

import dev.inferbench.BenchException;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.config.BenchConfig;

import java.util.Map;
import java.util.Optional;

/**
 * Decides, before any fork starts, that one cell of the matrix cannot run on this machine or build (a device that
 * is absent, a batch size the model file fixes otherwise). A skipped cell is printed with its reason, listed as
 * skipped in the run folder and the summary, and is not a failure. Bad input (an unknown name) is not a skip: it
 * throws {@link BenchException}. Rules ask the domain plain questions (how many GPUs, which batch the file fixes,
 * what an engine reads); the domain knows nothing of rules.
 */
public interface SkipRule {

    /** Whether the rule is about cells of this benchmark method ({@code dev.inferbench.bench.X.method}); all by default. */
    default boolean appliesTo(String benchmark) {
        return true;
    }

    /** @return why the cell cannot run here, in one line; empty when it can */
    Optional<String> skipReason(CellSpec cell) throws BenchException;

    /**
     * The same, for a rule that also reads a benchmark's own parameters beyond the typed cell (a serving cell's
     * batching); the planner asks this one.
     */
    default Optional<String> skipReason(CellSpec cell, Map<String, String> params) throws BenchException {
        return skipReason(cell);
    }

    /** The same for a cell's JMH parameters; a benchmark without a model has nothing to skip. */
    default Optional<String> skipReason(Map<String, String> params, BenchConfig config) throws BenchException {
        return CellSpec.isModelCell(params) ? skipReason(CellSpec.of(params, config), params) : Optional.empty();
    }
}

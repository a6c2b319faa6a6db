package dev.inferbench.metrics;

import dev.inferbench.BenchException;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.config.BenchConfig;
import org.openjdk.jmh.infra.BenchmarkParams;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The typed cell a profiler's fork measures, made once per fork from JMH's parameters (a fork runs one cell):
 * empty for a benchmark that is not a model cell, or whose values the benchmark's own setup reports as bad.
 */
final class ForkCell {
    private static BenchmarkParams madeFor;
    private static Optional<CellSpec> cell = Optional.empty();

    private ForkCell() {
    }

    static synchronized Optional<CellSpec> of(BenchmarkParams params) {
        if (params != madeFor) {
            madeFor = params;
            Map<String, String> values = new LinkedHashMap<>();
            params.getParamsKeys().forEach(k -> values.put(k, params.getParam(k)));
            try {
                cell = CellSpec.isModelCell(values) ? Optional.of(CellSpec.of(values, BenchConfig.load()))
                        : Optional.empty();
            } catch (BenchException | RuntimeException unreadable) {
                cell = Optional.empty();
            }
        }
        return cell;
    }
}

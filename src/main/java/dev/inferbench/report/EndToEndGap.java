package dev.inferbench.report;

import dev.inferbench.cell.BenchmarkNames;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.results.CellSummary;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * End-to-end vs inference-only: for each EndToEndBenchmark cell, the InferenceBenchmark cell with the same
 * params, both means, and the gap (Java pre- and post-processing) in the model's unit and as a share of the
 * end-to-end time. Empty when a run has no such pair.
 */
final class EndToEndGap {
    private EndToEndGap() {
    }

    static String render(List<CellSummary> cells, Map<String, DisplayUnit> units) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("model", "engine", "batch", "end-to-end", "inference", "gap", "gap %"));
        for (CellSummary e2e : cells) {
            if (!BenchmarkNames.inClass(e2e.benchmark(), BenchmarkNames.END_TO_END)) {
                continue;
            }
            cells.stream()
                    .filter(c -> BenchmarkNames.inClass(c.benchmark(), BenchmarkNames.INFERENCE) && sameShared(e2e, c))
                    .findFirst()
                    .ifPresent(inf -> {
                        DisplayUnit u = units.get(SummaryTable.groupOf(e2e));
                        double a = e2e.mean().estimate();
                        double b = inf.mean().estimate();
                        rows.add(List.of(e2e.params().getOrDefault(CellSpec.MODEL, ""),
                                e2e.params().getOrDefault(CellSpec.ENGINE, ""), e2e.params().getOrDefault(CellSpec.BATCH_SIZE, ""),
                                SummaryTable.time(a, u), SummaryTable.time(b, u), SummaryTable.time(a - b, u),
                                String.format(Locale.ROOT, "%.1f%%", 100 * (a - b) / a)));
                    });
        }
        if (rows.size() == 1) {
            return "";
        }
        return "\nend-to-end (pre-processing + inference + post-processing) vs inference only, means:\n"
                + SummaryTable.layout(rows);
    }

    /**
     * Same value for every param both cells have (the inference cell has more: threads, optLevel...), and the
     * inference cell runs what the end-to-end cell runs: the model file as is (fp32) on synthetic inputs.
     */
    private static boolean sameShared(CellSummary a, CellSummary b) {
        return a.unit().equals(b.unit()) && b.params().getOrDefault(CellSpec.PRECISION, "fp32").equals("fp32")
                && b.params().getOrDefault(CellSpec.DATA, "synthetic").equals("synthetic") && a.params().entrySet().stream()
                .allMatch(p -> !b.params().containsKey(p.getKey())
                        || Objects.equals(b.params().get(p.getKey()), p.getValue()));
    }
}

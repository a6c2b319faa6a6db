package dev.inferbench.findings;

import dev.inferbench.cell.CellSpec;
import dev.inferbench.results.CellSummary;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The cells of one setting (benchmark and every param but the batch) measured at two or more batch sizes, in
 * batch order: what the findings across batch sizes read (throughput saturation, memory per sample). The one place
 * that groups them.
 */
public final class BatchSeries {
    private BatchSeries() {
    }

    /**
     * Each setting's cells that pass {@code has}, by batch, where two or more batches remain, each once: the cells of
     * one run (a setting with a batch size twice is no series).
     */
    public static List<List<CellSummary>> of(List<CellSummary> cells, Predicate<CellSummary> has) {
        Map<String, List<CellSummary>> bySetting = new LinkedHashMap<>();
        for (CellSummary c : cells) {
            if (c.params().containsKey(CellSpec.BATCH_SIZE) && has.test(c)) {
                Map<String, String> rest = new LinkedHashMap<>(c.params());
                rest.remove(CellSpec.BATCH_SIZE);
                bySetting.computeIfAbsent(c.benchmark() + rest, k -> new ArrayList<>()).add(c);
            }
        }
        List<List<CellSummary>> out = new ArrayList<>();
        for (List<CellSummary> group : bySetting.values()) {
            // a batch size twice (one cell of two runs given as one list) is two readings of one point, not a series:
            // read as one, it would "saturate at batch 1 ... by batch 1: x, 1: y"; callers keep runs apart
            if (group.size() >= 2 && group.stream().map(BatchSeries::batch).distinct().count() == group.size()) {
                group.sort(Comparator.comparingInt(BatchSeries::batch));
                out.add(group);
            }
        }
        return out;
    }

    public static int batch(CellSummary c) {
        return Integer.parseInt(c.params().get(CellSpec.BATCH_SIZE));
    }
}

package dev.inferbench.report;

import dev.inferbench.cell.BenchmarkNames;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.cell.VaryingParams;
import dev.inferbench.results.CellSummary;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The cells of one setting (benchmark and every param but the batch) measured at two or more batch sizes, in
 * batch order: what the findings across batch sizes read (throughput saturation, memory per sample). The one place
 * that groups them.
 */
final class BatchSeries {
    private BatchSeries() {
    }

    /** Each setting's cells that pass {@code has}, by batch, where two or more batches remain. */
    static List<List<CellSummary>> of(List<CellSummary> cells, Predicate<CellSummary> has) {
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
            if (group.size() >= 2) {
                group.sort(Comparator.comparingInt(BatchSeries::batch));
                out.add(group);
            }
        }
        return out;
    }

    static int batch(CellSummary c) {
        return Integer.parseInt(c.params().get(CellSpec.BATCH_SIZE));
    }

    /**
     * "resnet50 on ort", or the benchmark for cells without a model; a benchmark other than inference is named
     * ("resnet50 on djl-pytorch (TrainingBenchmark.step)"), so that its line is not read as inference's; then the
     * params other than the batch that vary among {@code all} ("resnet50 on ort, threads=2").
     */
    static String who(CellSummary c, List<CellSummary> all) {
        String who = c.params().getOrDefault(CellSpec.MODEL, c.benchmark()) + " on "
                + c.params().getOrDefault(CellSpec.ENGINE, "?");
        who = !c.params().containsKey(CellSpec.MODEL) || BenchmarkNames.inClass(c.benchmark(), BenchmarkNames.INFERENCE)
                ? who : who + " (" + c.benchmark() + ")";
        // the other params that tell this cell from the run's others (threads=2), as the table's columns do
        String rest = VaryingParams.of(all.stream().map(CellSummary::params).toList())
                .name(c.params(), Set.of(CellSpec.MODEL, CellSpec.ENGINE, CellSpec.BATCH_SIZE));
        return rest.isEmpty() ? who : who + ", " + rest;
    }

    /** Every finding across batch sizes, throughput first: the summary's and the reports' lines. */
    static List<String> findings(List<CellSummary> cells) {
        return Stream.concat(Saturation.lines(cells).stream(), MemoryScaling.lines(cells).stream()).toList();
    }
}

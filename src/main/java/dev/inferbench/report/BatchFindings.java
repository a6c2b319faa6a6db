package dev.inferbench.report;

import dev.inferbench.cell.BenchmarkNames;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.cell.VaryingParams;
import dev.inferbench.findings.BatchSeries;
import dev.inferbench.findings.MemoryScaling;
import dev.inferbench.findings.Saturation;
import dev.inferbench.results.CellSummary;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The findings across batch sizes in words, as the summary and the reports print them: where throughput saturates
 * ({@link Saturation}) and what each sample costs in memory ({@link MemoryScaling}), one line per setting.
 */
final class BatchFindings {
    private BatchFindings() {
    }

    /** Every finding across batch sizes, throughput first: the summary's and the reports' lines. */
    static List<String> findings(List<CellSummary> cells) {
        return findings(cells, "");
    }

    /**
     * The findings of each run apart, in the order the runs come, the run named where there are several: two runs of
     * one cell are two measurements of one batch size, not a series, so a series only ever holds cells of one run.
     */
    static List<String> findingsByRun(List<ReportRow> rows) {
        Map<String, List<CellSummary>> byRun = new LinkedHashMap<>();
        rows.forEach(r -> byRun.computeIfAbsent(r.run(), k -> new ArrayList<>()).add(CellSummary.of(r.source())));
        List<String> out = new ArrayList<>();
        byRun.forEach((run, cells) -> out.addAll(findings(cells, byRun.size() > 1 ? " in run " + run : "")));
        return out;
    }

    private static List<String> findings(List<CellSummary> cells, String inRun) {
        return Stream.concat(Saturation.of(cells).stream().map(s -> line(s, cells, inRun)),
                MemoryScaling.of(cells).stream().map(m -> line(m, cells, inRun))).toList();
    }

    /** "throughput: resnet50 on ort saturates at batch 8 (...)" or "... still rises at batch 16 (...)". */
    static List<String> saturation(List<CellSummary> cells) {
        return Saturation.of(cells).stream().map(s -> line(s, cells, "")).toList();
    }

    /** "memory: resnet50 on ort: 12.5 [11.9, 13.1] MiB per sample + 640 MiB fixed (...)". */
    static List<String> memory(List<CellSummary> cells) {
        return MemoryScaling.of(cells).stream().map(m -> line(m, cells, "")).toList();
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

    private static String line(Saturation s, List<CellSummary> all, String inRun) {
        List<CellSummary> byBatch = s.byBatch();
        String who = who(byBatch.get(0), all) + inRun;
        StringBuilder path = new StringBuilder();
        for (CellSummary c : byBatch) {
            path.append(path.length() == 0 ? "" : ", ").append(batch(c)).append(": ")
                    .append(SummaryTable.num(c.samplesPerSecond()));
        }
        if (s.saturates()) {
            return "throughput: " + who + " saturates at batch " + batch(byBatch.get(s.at())) + " (no larger batch"
                    + " serves " + (int) Saturation.GAIN_PERCENT + " % more; samples/s by batch " + path + ")";
        }
        int last = byBatch.size() - 1;
        return String.format(Locale.ROOT, "throughput: %s still rises at batch %s (+%.0f %% over batch %s; samples/s by"
                + " batch %s)", who, batch(byBatch.get(last)), s.lastGainPercent(), batch(byBatch.get(last - 1)), path);
    }

    private static String line(MemoryScaling m, List<CellSummary> all, String inRun) {
        double[] x = m.batches();
        double[] ys = m.resident();
        int n = x.length;
        StringBuilder sets = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sets.append(i == 0 ? "" : ", ").append((int) x[i]).append(": ").append(SummaryTable.num(ys[i]));
        }
        String interval = m.slope().known() ? " [" + SummaryTable.num(m.slope().lower()) + ", "
                + SummaryTable.num(m.slope().upper()) + "]" : " [n/a: one fork]";
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "memory: %s: %s%s MiB per sample + %s MiB fixed"
                        + " (resident set by batch %s MiB", who(m.byBatch().get(0), all) + inRun,
                SummaryTable.num(m.fit().slope()), interval, SummaryTable.num(m.fit().intercept()), sets));
        if (!m.checked()) {
            return sb.append("; two batch sizes: a line through both, linearity not checked)").toString();
        }
        sb.append(String.format(Locale.ROOT, m.linear()
                ? "; linear: every batch within %1$.0f %% of the batch effect (%2$s MiB from batch %3$d to %5$d) of the line"
                : "; not linear: batch %4$d is %1$.0f %% of the batch effect (%2$s MiB from batch %3$d to %5$d) off the line",
                m.worstPercent(), SummaryTable.num(m.effect()), (int) x[0], (int) x[m.worstAt()], (int) x[n - 1]));
        StringBuilder steps = new StringBuilder();
        double[] step = m.steps();
        for (int i = 1; i < n; i++) {
            steps.append(i == 1 ? "" : ", ").append((int) x[i - 1]).append(" to ").append((int) x[i]).append(": ")
                    .append(SummaryTable.num(step[i - 1]));
        }
        return sb.append("; per added sample ").append(steps).append(" MiB, ").append(switch (m.stepsAre()) {
            case CONSTANT -> "constant";
            case FELL_OR_HELD -> "not constant: the set fell or held between two batches";
            case NOT_CONSTANT -> "not constant";
        }).append(")").toString();
    }

    private static String batch(CellSummary c) {
        return Integer.toString(BatchSeries.batch(c));
    }
}

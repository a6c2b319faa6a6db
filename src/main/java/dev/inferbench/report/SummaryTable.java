package dev.inferbench.report;

import dev.inferbench.metrics.CallBytesProfiler;
import dev.inferbench.metrics.CpuProfiler;
import dev.inferbench.metrics.MemoryProfiler;
import dev.inferbench.metrics.SamplesProfiler;
import dev.inferbench.metrics.SetupProfiler;
import dev.inferbench.results.MetricCatalogue;
import dev.inferbench.results.MetricEntry;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.results.CallFigures;
import dev.inferbench.results.CellSummary;
import dev.inferbench.results.jmh.MeasuredCell;
import dev.inferbench.results.MemoryGrowth;

import dev.inferbench.stats.Percentiles;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The compact table printed after a run and saved as summary.txt. Times are shown in one unit per model (the
 * largest in which the model's fastest cell is at least 1: µs for mlp-tiny, ms for resnet50), named in each cell;
 * the JSON keeps JMH's unit. Secondary metrics that some cell has get a column each, in their own unit. When a run
 * has EndToEndBenchmark cells and the matching InferenceBenchmark cells, a second table gives the gap.
 */
public final class SummaryTable {
    private static final List<String> PARAM_ORDER = List.of("model", "engine", "batchSize", "seqLen", "device", "threads");
    /** Shown even when every cell has the same value; other params get a column only where cells differ. */
    private static final Set<String> ALWAYS = Set.of("model", "engine", "batchSize", "seqLen", "device");
    private static final Map<String, String> HEADINGS = Map.of("batchSize", "batch", "seqLen", "seq");
    /** Secondary metrics shown, in this order, each headed as the catalogue says ({@link MetricEntry#column}). */
    private static final List<String> EXTRAS = List.of(SetupProfiler.LOAD_TIME, SetupProfiler.FIRST_INFERENCE,
            SetupProfiler.PROCESS_TO_FIRST_RESULT, MemoryProfiler.RSS_PEAK, MemoryProfiler.NATIVE_MODEL,
            MemoryProfiler.HEAP_USED, CallBytesProfiler.LABEL);
    /**
     * The CPU a call costs (time per call, in the model's unit) and the cores the cell kept busy: shown when the run
     * is about how the CPU is used (it varies callers, sharing, spinning or threads, or has several callers), where
     * they say something the latency does not; every run has them in the report, the CSV and the JSON.
     */
    private static final Set<String> CPU_PARAMS = Set.of(CellSpec.CALLERS, CellSpec.SHARING, CellSpec.SPIN,
            CellSpec.THREADS, CellSpec.INTER_OP_THREADS);

    private SummaryTable() {
    }

    /** Rows sorted by benchmark, then model, engine, batch (numerically), device, threads, other params. */
    public static String render(List<CellSummary> unsorted) {
        if (unsorted.isEmpty()) {
            return "no results\n";
        }
        String serving = ServingTable.render(unsorted);
        List<CellSummary> cells = new ArrayList<>(unsorted.stream().filter(c -> !ServingTable.isServing(c)).toList());
        if (cells.isEmpty()) {
            return serving.stripLeading();
        }
        Set<String> paramKeys = new LinkedHashSet<>();
        PARAM_ORDER.stream().filter(k -> cells.stream().anyMatch(c -> c.params().containsKey(k))).forEach(paramKeys::add);
        cells.forEach(c -> paramKeys.addAll(ConstantParams.shown(c.params()).keySet()));
        if (!sequenceModels(cells)) {
            paramKeys.remove(CellSpec.SEQ_LEN); // every model's inputs are without a sequence: seqLen changed nothing
        }
        Map<String, String> constant = ConstantParams.split(cells.stream().map(c -> ConstantParams.shown(c.params()))
                .toList(), paramKeys, ALWAYS);
        cells.sort(Comparator.comparing(CellSummary::benchmark).thenComparing((a, b) -> {
            for (String k : paramKeys) {
                int c = compareValues(a.params().getOrDefault(k, ""), b.params().getOrDefault(k, ""));
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        }));
        boolean manyBenchmarks = cells.stream().map(CellSummary::benchmark).distinct().count() > 1;

        List<String> head = new ArrayList<>();
        if (manyBenchmarks) {
            head.add("benchmark");
        }
        paramKeys.forEach(k -> head.add(HEADINGS.getOrDefault(k, k)));
        List<String> percentiles = percentiles(cells);
        boolean calls = cells.stream().anyMatch(c -> c.extras().containsKey(CellSummary.SD));
        List<String> extras = EXTRAS.stream()
                .filter(e -> cells.stream().anyMatch(c -> c.extras().containsKey(e))).toList();
        Map<String, DisplayUnit> units = units(cells);
        boolean cpu = cells.stream().anyMatch(c -> c.extras().containsKey(CpuProfiler.PER_CALL))
                && (paramKeys.stream().anyMatch(CPU_PARAMS::contains)
                || cells.stream().anyMatch(c -> !"1".equals(c.params().getOrDefault(CellSpec.CALLERS, "1"))));
        if (calls) {
            head.add(CellSummary.MIN);
        }
        head.addAll(percentiles);
        head.addAll(List.of(CellSummary.MAX, "mean ± 95% CI", "±%"));
        if (calls) {
            head.add(CellSummary.SD);
        }
        head.add("forks");
        boolean perSample = cells.stream().anyMatch(c -> !"1".equals(c.params().getOrDefault(CellSpec.BATCH_SIZE, "1"))
                && c.extras().containsKey(SamplesProfiler.PER_SAMPLE));
        if (perSample) {
            head.add(heading(SamplesProfiler.PER_SAMPLE));
        }
        head.add(heading(SamplesProfiler.LABEL));
        boolean tokens = cells.stream().anyMatch(c -> c.extras().containsKey(SamplesProfiler.TOKENS));
        if (tokens) {
            head.add(heading(SamplesProfiler.TOKENS));
        }
        if (cpu) {
            head.addAll(List.of(heading(CpuProfiler.PER_CALL), heading(CpuProfiler.CORES)));
        }
        extras.forEach(e -> head.add(MetricCatalogue.of(e, "").column()));

        List<List<String>> rows = new ArrayList<>();
        rows.add(head);
        for (CellSummary c : cells) {
            List<String> row = new ArrayList<>();
            if (manyBenchmarks) {
                row.add(c.benchmark());
            }
            Map<String, String> shown = ConstantParams.shown(c.params());
            paramKeys.forEach(k -> row.add(shown.getOrDefault(k, "")));
            DisplayUnit u = units.get(groupOf(c));
            if (calls) {
                row.add(time(c.extras().getOrDefault(CellSummary.MIN, Double.NaN), u));
            }
            percentiles.forEach(p -> row.add(time(percentile(c, p), u)));
            row.add(time(c.extras().getOrDefault(CellSummary.MAX, Double.NaN), u));
            double hw = c.mean().halfWidth();
            row.add(num(u.convert(c.mean().estimate())) + " ± " + (Double.isNaN(hw) ? "n/a" : num(u.convert(hw)))
                    + " " + u.label());
            double rel = c.mean().relativeError();
            row.add(Double.isNaN(rel) ? "n/a" : String.format(Locale.ROOT, "%.1f%%", rel * 100));
            if (calls) {
                row.add(time(c.extras().getOrDefault(CellSummary.SD, Double.NaN), u));
            }
            row.add(Integer.toString(c.mean().forks()));
            if (perSample) {
                row.add(time(c.extras().getOrDefault(SamplesProfiler.PER_SAMPLE, Double.NaN), u));
            }
            row.add(num(c.samplesPerSecond()));
            if (tokens) {
                row.add(num(c.extras().getOrDefault(SamplesProfiler.TOKENS, Double.NaN)));
            }
            if (cpu) {
                row.add(time(c.extras().getOrDefault(CpuProfiler.PER_CALL, Double.NaN), u));
                row.add(num(c.extras().getOrDefault(CpuProfiler.CORES, Double.NaN)));
            }
            extras.forEach(e -> row.add(num(c.extras().getOrDefault(e, Double.NaN))));
            rows.add(row);
        }
        String same = ConstantParams.line("every cell", constant);
        return layout(rows) + (same.isEmpty() ? "" : same + "\n") + EndToEndGap.render(cells, units)
                + BatchFindings.findings(cells).stream().map(l -> l + "\n").collect(Collectors.joining())
                + growth(cells) + serving + TrainingTable.render(unsorted) + GenerationTable.render(unsorted);
    }

    /**
     * A line for each cell whose resident set grew with calls ({@link MemoryGrowth}): what a leak looks like; one for
     * each cell whose set grew early in the measured calls and then held (warm-up, said so that it is not taken for a
     * leak); and one line for the cells that could not be judged, with why. Flat cells say nothing here; their figures
     * are in the report and the JSON.
     */
    static String growth(List<CellSummary> cells) {
        StringBuilder sb = new StringBuilder();
        int unjudged = 0;
        for (CellSummary c : cells) {
            if (!MemoryGrowth.measured(c)) {
                continue;
            }
            MemoryGrowth g = MemoryGrowth.of(c);
            String who = c.params().containsKey(CellSpec.MODEL) ? BatchFindings.who(c, cells) + ", batch "
                    + c.params().getOrDefault(CellSpec.BATCH_SIZE, "1") : c.benchmark() + " " + c.params();
            switch (g.kind()) {
                case GROWS -> sb.append("memory: ").append(who).append(": the resident set grows ")
                        .append(num(g.rate())).append(" ± ").append(num(g.rateHalfWidth()))
                        .append(" MiB per 10,000 calls in the later half of the measured calls (")
                        .append(num(g.grown())).append(" MiB over it; earlier half ").append(num(g.grewEarly()))
                        .append(" MiB), ").append(c.mean().forks()).append(" forks (a leak, or a warm-up longer than the run)\n");
                case SETTLES -> sb.append("memory: ").append(who).append(": the resident set grew ")
                        .append(num(g.grewEarly())).append(" ± ").append(num(g.grewEarlyHalfWidth()))
                        .append(" MiB in the earlier half of the measured calls and then held (")
                        .append(num(g.rate())).append(" ± ").append(num(g.rateHalfWidth()))
                        .append(" MiB per 10,000 calls after), ").append(c.mean().forks())
                        .append(" forks: warm-up, not a leak\n");
                case NOT_JUDGED -> unjudged++;
                case FLAT -> { }
            }
        }
        if (unjudged > 0) {
            sb.append("memory: growth with calls not judged for ").append(unjudged).append(unjudged == 1 ? " cell" : " cells")
                    .append(": one fork (an interval needs 2 or more forks)\n");
        }
        return sb.toString();
    }

    /**
     * The percentile columns: those the cells' figures hold ({@code --percentiles}, else the default and p90 for
     * single-shot cells), in increasing order.
     */
    private static List<String> percentiles(List<CellSummary> cells) {
        Set<String> names = new LinkedHashSet<>();
        // JMH's own SampleTime entries (p0.50, p0.99: fractions, not percents) are secondary metrics, not columns
        cells.forEach(c -> c.extras().keySet().stream()
                .filter(k -> CallFigures.isPercentile(k) && !MeasuredCell.isPercentileEntry(k)).forEach(names::add));
        if (names.isEmpty()) {
            Arrays.stream(CellSummary.DEFAULT_PERCENTILES).mapToObj(Percentiles::label).forEach(names::add);
        }
        return names.stream().sorted(Comparator.comparingDouble(n -> Double.parseDouble(n.substring(1)))).toList();
    }

    /** A percentile of the cell's calls by name; the record's own p50 and p99 where its extras lack them. */
    private static double percentile(CellSummary c, String name) {
        Double v = c.extras().get(name);
        return v != null ? v : name.equals(CellSummary.P50) ? c.p50() : name.equals("p99") ? c.p99() : Double.NaN;
    }

    /** A column's heading as the catalogue gives it, without a unit (the column's values carry their own). */
    private static String heading(String metric) {
        return MetricCatalogue.of(metric, "").heading();
    }

    /** Whether some cell's model takes seqLen ({@link SeqLenShown}). */
    static boolean sequenceModels(List<CellSummary> cells) {
        return SeqLenShown.of(cells.stream().map(c -> c.extras().keySet()).toList());
    }

    /** The cells a unit is chosen for together: one model (the benchmark when a cell has no model). */
    static String groupOf(CellSummary c) {
        return c.params().getOrDefault(CellSpec.MODEL, c.benchmark()) + "\u0000" + c.unit();
    }

    /** Each group's unit, by the one rule the reports use too ({@link DisplayUnit}) over the group's means. */
    static Map<String, DisplayUnit> units(List<CellSummary> cells) {
        Map<String, List<Double>> means = new LinkedHashMap<>();
        for (CellSummary c : cells) {
            means.computeIfAbsent(groupOf(c), g -> new ArrayList<>()).add(c.mean().estimate());
        }
        Map<String, DisplayUnit> units = new LinkedHashMap<>();
        for (CellSummary c : cells) {
            units.computeIfAbsent(groupOf(c), g -> DisplayUnit.choose(c.unit(), means.get(g)));
        }
        return units;
    }

    static String time(double v, DisplayUnit u) {
        return Double.isNaN(v) ? "n/a" : num(u.convert(v)) + " " + u.label();
    }

    private static int compareValues(String a, String b) {
        if (a.matches("\\d+") && b.matches("\\d+") && a.length() < 10 && b.length() < 10) {
            return Integer.compare(Integer.parseInt(a), Integer.parseInt(b));
        }
        return a.compareTo(b);
    }

    static String layout(List<List<String>> rows) {
        int cols = rows.get(0).size();
        int[] width = new int[cols];
        for (List<String> r : rows) {
            for (int i = 0; i < cols; i++) {
                width[i] = Math.max(width[i], r.get(i).length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (List<String> r : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < cols; i++) {
                line.append(String.format(Locale.ROOT, "%-" + width[i] + "s", r.get(i)));
                if (i < cols - 1) {
                    line.append("  ");
                }
            }
            sb.append(line.toString().stripTrailing()).append('\n');
        }
        return sb.toString();
    }

    /** Four significant figures or so, without scientific notation for the usual range. */
    static String num(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        double a = Math.abs(v);
        String fmt = a >= 1000 ? "%.0f" : a >= 100 ? "%.1f" : a >= 10 ? "%.2f" : a >= 1 ? "%.3f" : "%.4f";
        return String.format(Locale.ROOT, fmt, v);
    }
}

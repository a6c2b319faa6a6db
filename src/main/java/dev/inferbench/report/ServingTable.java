package dev.inferbench.report;

import dev.inferbench.cell.CellSpec;
import dev.inferbench.findings.ForkOutcomes;
import dev.inferbench.findings.ServingCells;
import dev.inferbench.metrics.CpuProfiler;
import dev.inferbench.results.CellSummary;
import dev.inferbench.serve.ServingProfiler;
import dev.inferbench.serve.ServingSpec;
import dev.inferbench.serve.Slo;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The open-loop serving cells of a run (ServingBenchmark), in a table of their own: what a service owner reads
 * (offered and served rate, latency percentiles from intended start, queue, late and dropped requests, CPU per
 * request, the SLO), then, per setting, the knee in words: the highest offered rate whose steps met the SLO in every
 * fork, and the next rate that missed it; for {@code rate=max} cells, the sustainable rate the forks' searches found.
 * Figures are means over forks (one measured step per fork). With dynamic batching ({@code batchWaitMs}) a request is
 * one sample and {@code req/call} is how many a call served on average. Generation under load (GenerationLoadBenchmark)
 * adds TTFT, TPOT and ITL percentiles and output tokens/s; {@code req/call} is then requests per static batch.
 */
public final class ServingTable {
    /** Params shown always; the other varying ones get a column too. Constant ones go in the line below the table. */
    private static final List<String> FIRST = List.of(CellSpec.MODEL, CellSpec.ENGINE, CellSpec.BATCH_SIZE,
            CellSpec.CALLERS, CellSpec.SHARING);
    private static final Map<String, String> HEADINGS = Map.of(CellSpec.BATCH_SIZE, "batch");

    private ServingTable() {
    }

    public static boolean isServing(CellSummary c) {
        return ServingSpec.isServingCell(c.params());
    }

    /** The table and the knees as the terminal summary prints them; empty when the run has no serving cell. */
    static String render(List<CellSummary> all) {
        return table(all).render();
    }

    /**
     * The columns from served/s to cores, a figure each; generation under load adds the token figures, from each
     * request's intended start (absent, so dropped, otherwise).
     */
    private static final List<String> FIGURES = Stream.of(Stream.of(ServingProfiler.RATE, ServingProfiler.BATCH),
            Arrays.stream(ServingProfiler.PERCENTILES).mapToObj(ServingProfiler::percentileLabel),
            Stream.of(ServingProfiler.MAX, ServingProfiler.tokenLabel(Slo.Metric.TTFT, 50),
                    ServingProfiler.tokenLabel(Slo.Metric.TTFT, 99), ServingProfiler.tokenLabel(Slo.Metric.TPOT, 50),
                    ServingProfiler.tokenLabel(Slo.Metric.TPOT, 99), ServingProfiler.tokenLabel(Slo.Metric.ITL, 99),
                    ServingProfiler.TOKENS, ServingProfiler.TOKENS_PER_USER, ServingProfiler.WAIT,
                    ServingProfiler.QUEUE_MAX, ServingProfiler.LATE, ServingProfiler.DROPPED, CpuProfiler.PER_CALL,
                    CpuProfiler.CORES)).flatMap(s -> s).toList();
    static final String TITLE = "Serving";
    static final String HEADING = "serving (open loop; latency from each request's intended start, means over forks of"
            + " one measured step each)";

    /**
     * The serving cells' section for every output: the table, the params every serving cell shares, and one knee line
     * per setting with an SLO.
     */
    static TableSection table(List<CellSummary> all) {
        List<CellSummary> cells = new ArrayList<>(all.stream().filter(ServingTable::isServing).toList());
        if (cells.isEmpty()) {
            return TableSection.empty(TITLE);
        }
        Set<String> keys = new LinkedHashSet<>(FIRST);
        cells.forEach(c -> keys.addAll(ConstantParams.shown(c.params()).keySet()));
        keys.remove(ServingSpec.RATE);
        if (!SummaryTable.sequenceModels(cells)) {
            keys.remove(CellSpec.SEQ_LEN); // no model here takes a sequence length
        }
        Map<String, String> constant = ConstantParams.split(cells.stream().map(c -> ConstantParams.shown(c.params()))
                .toList(), keys, Set.copyOf(FIRST));
        cells.sort(Comparator.comparing((CellSummary c) -> ServingCells.setting(c, keys)).thenComparingDouble(ServingCells::offered));
        List<List<String>> rows = new ArrayList<>();
        List<String> head = new ArrayList<>();
        keys.forEach(k -> head.add(HEADINGS.getOrDefault(k, k)));
        head.addAll(List.of("offered/s", "served/s", "req/call", "p50 ms", "p90 ms", "p95 ms", "p99 ms", "p99.9 ms",
                "max ms", "TTFT p50", "TTFT p99", "TPOT p50", "TPOT p99", "ITL p99", "out tok/s", "tok/s/user", "wait ms", "queue max", "late %", "dropped %", "cpu/req ms", "cores", "valid", "SLO",
                "goodput/s", "forks"));
        rows.add(head);
        for (CellSummary c : cells) {
            List<String> row = new ArrayList<>();
            Map<String, String> shown = ConstantParams.shown(c.params());
            keys.forEach(k -> row.add(shown.getOrDefault(k, "")));
            boolean search = ServingCells.isSearch(c);
            row.add(search ? "max: " + sustainable(c) : SummaryTable.num(ServingCells.offered(c)));
            FIGURES.forEach(m -> row.add(fig(c, m)));
            row.add(valid(c));
            row.add(slo(c));
            row.add(fig(c, ServingProfiler.GOODPUT));
            row.add(Integer.toString(c.mean().forks()));
            rows.add(row);
        }
        dropEmptyColumns(rows);
        return new TableSection(TITLE, HEADING, rows, "[-0-9.±: max≥]+", ConstantParams.line("every serving cell", constant),
                lines(cells), "knee");
    }

    /** The knees, then the note on spinning threads where a cpu/req figure has them in it. */
    private static List<String> lines(List<CellSummary> cells) {
        List<String> out = new ArrayList<>(ServingKnees.lines(cells));
        spinNote(cells).ifPresent(out::add);
        return out;
    }

    /**
     * ONNX Runtime's intra-op threads spin between calls unless the cell turned it off, and that CPU is the serving
     * side's: at a low rate it dwarfs the calls' own (23 ms of CPU per request beside a 0.39 ms p50), so a cpu/req
     * figure says when spinning is in it.
     */
    static Optional<String> spinNote(List<CellSummary> cells) {
        List<CellSummary> spinning = cells.stream().filter(c -> c.extras().containsKey(CpuProfiler.PER_CALL))
                .filter(c -> !c.params().getOrDefault(CellSpec.ENGINE, "ort").equals("djl-pytorch"))
                .filter(c -> !c.params().getOrDefault(CellSpec.SPIN, "on").strip().equalsIgnoreCase("off")).toList();
        if (spinning.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("cpu/req: " + (spinning.size() == cells.size() ? "every cell's" : spinning.size() + " of "
                + cells.size() + " cells'") + " CPU per request includes ONNX Runtime's threads spinning between"
                + " requests (spin=on, the default); run with -p spin=off to see the difference");
    }

    /**
     * A percentile no step had the requests for (p99.9 from 100-request steps) is n/a everywhere: left out, as is a
     * figure or parameter no cell of the run has.
     */
    private static void dropEmptyColumns(List<List<String>> rows) {
        for (int col = rows.get(0).size() - 1; col >= 0; col--) {
            int c = col;
            if (rows.stream().skip(1).allMatch(r -> r.get(c).equals("n/a") || r.get(c).equals("-")
                    || r.get(c).isEmpty())) { // a parameter no serving cell of the run has (sharing, for generation)
                rows.forEach(r -> r.remove(c));
            }
        }
    }

    /** "yes", or "INVALID: late" / "INVALID 1/2: behind" (the reasons of the forks that were invalid). */
    private static String valid(CellSummary c) {
        ForkOutcomes o = ForkOutcomes.of(c);
        if (!o.validKnown()) {
            return "n/a"; // a run from before validity was measured
        }
        int forks = o.forks();
        long valid = o.valid();
        if (valid == forks) {
            return "yes";
        }
        List<String> why = new ArrayList<>();
        if (o.late()) {
            why.add("late");
        }
        if (o.behind()) {
            why.add("behind");
        }
        return "INVALID" + (valid == 0 ? "" : " " + (forks - valid) + "/" + forks) + ": " + String.join("+", why);
    }

    static String sustainable(CellSummary c) {
        double v = c.extras().getOrDefault(ServingProfiler.SUSTAINABLE, Double.NaN);
        double hw = c.extras().getOrDefault(CellSummary.SUSTAINABLE_HALF_WIDTH, Double.NaN);
        return SummaryTable.num(v) + (Double.isNaN(hw) ? "" : " ± " + SummaryTable.num(hw));
    }

    private static String slo(CellSummary c) {
        String slo = c.params().getOrDefault(ServingSpec.SLO, "none");
        if (slo.equals("none")) {
            return "-";
        }
        ForkOutcomes o = ForkOutcomes.of(c);
        if (Double.isNaN(o.metShare())) {
            return "n/a";
        }
        int forks = o.forks();
        long met = o.met();
        long unsure = o.unsure();
        String rest = unsure == 0 ? "" : (met == 0 && unsure == forks ? "" : ", ") + "unsure"
                + (unsure == forks ? "" : " " + unsure + "/" + forks);
        if (met == forks) {
            return "met";
        }
        if (met == 0) {
            return unsure == forks ? "unsure" : "missed" + rest;
        }
        return "met " + met + "/" + forks + rest;
    }

    static String fig(CellSummary c, String label) {
        return SummaryTable.num(c.extras().getOrDefault(label, Double.NaN));
    }
}

package dev.inferbench.report;

import dev.inferbench.BenchException;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.metrics.CpuProfiler;
import dev.inferbench.results.CellSummary;
import dev.inferbench.serve.ServingProfiler;
import dev.inferbench.serve.ServingSpec;
import dev.inferbench.serve.Slo;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The open-loop serving cells of a run (ServingBenchmark), in a table of their own: what a service owner reads
 * (offered and served rate, latency percentiles from intended start, queue, late and dropped requests, CPU per
 * request, the SLO), then, per setting, the knee in words: the highest offered rate whose steps met the SLO in every
 * fork, and the next rate that missed it; for {@code rate=max} cells, the sustainable rate the forks' searches found.
 * Figures are means over forks (one measured step per fork). With dynamic batching ({@code batchWaitMs}) a request is
 * one sample and {@code req/call} is how many a call served on average.
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
        cells.forEach(c -> keys.addAll(c.params().keySet()));
        keys.remove(ServingSpec.RATE);
        Map<String, String> constant = ConstantParams.split(cells.stream().map(CellSummary::params).toList(), keys,
                Set.copyOf(FIRST));
        cells.sort(Comparator.comparing((CellSummary c) -> setting(c, keys)).thenComparingDouble(ServingTable::offered));
        List<List<String>> rows = new ArrayList<>();
        List<String> head = new ArrayList<>();
        keys.forEach(k -> head.add(HEADINGS.getOrDefault(k, k)));
        head.addAll(List.of("offered/s", "served/s", "req/call", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms", "max ms", "queue max",
                "late %", "dropped %", "cpu/req ms", "cores", "SLO", "forks"));
        rows.add(head);
        for (CellSummary c : cells) {
            List<String> row = new ArrayList<>();
            keys.forEach(k -> row.add(c.params().getOrDefault(k, "")));
            boolean search = isSearch(c);
            row.add(search ? "max: " + sustainable(c) : SummaryTable.num(offered(c)));
            row.add(fig(c, ServingProfiler.RATE));
            row.add(fig(c, ServingProfiler.BATCH));
            for (double p : ServingProfiler.PERCENTILES) {
                row.add(fig(c, ServingProfiler.percentileLabel(p)));
            }
            row.add(fig(c, ServingProfiler.MAX));
            row.add(fig(c, ServingProfiler.QUEUE_MAX));
            row.add(fig(c, ServingProfiler.LATE));
            row.add(fig(c, ServingProfiler.DROPPED));
            row.add(fig(c, CpuProfiler.PER_CALL));
            row.add(fig(c, CpuProfiler.CORES));
            row.add(slo(c));
            row.add(Integer.toString(c.mean().forks()));
            rows.add(row);
        }
        dropEmptyColumns(rows);
        return new TableSection(TITLE, HEADING, rows, "[-0-9.±: max]+", ConstantParams.line("every serving cell", constant),
                knees(cells, keys), "knee");
    }

    /** A percentile no step had the requests for (p99.9 from 100-request steps) is n/a everywhere: left out. */
    private static void dropEmptyColumns(List<List<String>> rows) {
        for (int col = rows.get(0).size() - 1; col >= 0; col--) {
            int c = col;
            if (rows.stream().skip(1).allMatch(r -> r.get(c).equals("n/a"))) {
                rows.forEach(r -> r.remove(c));
            }
        }
    }

    /**
     * One line per setting (all params but the rate) with an SLO: its knee. For a sweep, the highest offered rate met
     * in every fork and the lowest above it that was not; for a search, the sustainable rate with its interval.
     */
    static List<String> knees(List<CellSummary> cells, Set<String> shownKeys) {
        Map<String, List<CellSummary>> bySetting = new LinkedHashMap<>();
        cells.stream().filter(c -> !"none".equals(c.params().getOrDefault(ServingSpec.SLO, "none")))
                .forEach(c -> bySetting.computeIfAbsent(setting(c, c.params().keySet()), k -> new ArrayList<>()).add(c));
        List<String> lines = new ArrayList<>();
        for (List<CellSummary> group : bySetting.values()) {
            CellSummary first = group.get(0);
            String who = describe(first);
            String slo = first.params().get(ServingSpec.SLO);
            for (CellSummary c : group) {
                if (isSearch(c)) {
                    lines.add("knee: " + who + ": " + sustainable(c) + " req/s sustainable at " + slo + " (highest rate"
                            + " each fork's search met; " + c.mean().forks() + " fork" + (c.mean().forks() == 1 ? "" : "s")
                            + ")");
                }
            }
            List<CellSummary> sweep = group.stream().filter(c -> !isSearch(c)).toList();
            if (sweep.isEmpty()) {
                continue;
            }
            CellSummary met = null;
            CellSummary missed = null;
            for (CellSummary c : sweep) {
                double share = c.extras().getOrDefault(ServingProfiler.SLO_MET, Double.NaN);
                if (share >= 1 && missed == null) {
                    met = c;
                } else if (missed == null) {
                    missed = c;
                }
            }
            if (met == null) {
                lines.add("knee: " + who + ": no offered rate met " + slo + " (the lowest, "
                        + SummaryTable.num(offered(sweep.get(0))) + " req/s, missed it)");
            } else {
                lines.add("knee: " + who + ": " + SummaryTable.num(offered(met)) + " req/s at " + slo
                        + (missed == null ? " (the highest rate tried; every rate met it)"
                        : " (next rate tried, " + SummaryTable.num(offered(missed)) + " req/s, missed it"
                        + missedIn(missed) + ": " + sloPercentile(missed, slo) + ")"));
            }
        }
        return lines;
    }

    /** resnet50 on ort, batch 1, 2 callers (shared), threads=1: who a knee belongs to, in words. */
    static String describe(CellSummary c) {
        Map<String, String> p = c.params();
        int callers = Integer.parseInt(p.getOrDefault(CellSpec.CALLERS, "1"));
        String threads = p.getOrDefault(CellSpec.THREADS, "0");
        int cores = Runtime.getRuntime().availableProcessors();
        int perCaller = threads.equals("0") ? cores : Integer.parseInt(threads);
        String over = callers * perCaller > cores ? ", oversubscribed: " + callers + " × " + perCaller + " threads on "
                + cores + " cores" : "";
        String wait = p.getOrDefault(ServingSpec.BATCH_WAIT_MS, ServingSpec.OFF);
        String batch = !ServingSpec.batches(wait) ? "batch " + p.getOrDefault(CellSpec.BATCH_SIZE, "1")
                : "dynamic batches of up to " + p.getOrDefault(CellSpec.BATCH_SIZE, "1") + " requests within " + wait
                + " ms";
        return p.get(CellSpec.MODEL) + " on " + p.get(CellSpec.ENGINE) + ", " + batch + ", " + callers + " caller" + (callers == 1 ? "" : "s") + " (" + p.getOrDefault(CellSpec.SHARING, "shared")
                + ") × " + (threads.equals("0") ? "all cores" : threads + " thread" + (threads.equals("1") ? "" : "s"))
                + ", " + p.getOrDefault(ServingSpec.ARRIVALS, "poisson") + " arrivals" + others(p) + over;
    }

    /** The settings the words above leave out, where they differ from their defaults: ", spin=off". */
    private static String others(Map<String, String> p) {
        StringBuilder sb = new StringBuilder();
        p.forEach((k, v) -> {
            if (!DESCRIBED.contains(k) && !v.equals(DEFAULTS.get(k))) {
                sb.append(", ").append(k).append('=').append(v);
            }
        });
        return sb.toString();
    }

    private static final Set<String> DESCRIBED = Set.of(CellSpec.MODEL, CellSpec.ENGINE, CellSpec.BATCH_SIZE,
            CellSpec.CALLERS, CellSpec.SHARING, CellSpec.THREADS, ServingSpec.ARRIVALS, ServingSpec.RATE,
            ServingSpec.SLO, ServingSpec.REQUESTS, CellSpec.SEQ_LEN, CellSpec.DEVICE, ServingSpec.BATCH_WAIT_MS);
    private static final Map<String, String> DEFAULTS = Map.of(CellSpec.SPIN, "on", ServingSpec.IDLE_MS, "0",
            CellSpec.INTER_OP_THREADS, "0", CellSpec.OPT_LEVEL, "all", CellSpec.PRECISION, "fp32",
            CellSpec.DATA, "synthetic");

    /**
     * "" when every fork missed; " in 1 of 2 forks (mean over forks)" when some met it, so that a mean below the bound
     * does not read as a contradiction.
     */
    private static String missedIn(CellSummary c) {
        int forks = c.mean().forks();
        long met = Math.round(c.extras().getOrDefault(ServingProfiler.SLO_MET, 0.0) * forks);
        return met == 0 ? "" : " in " + (forks - met) + " of " + forks + " forks (mean over forks)";
    }

    /** "p90 61.02 ms": the cell's value of the SLO's percentile (an unreadable SLO never reached a run). */
    private static String sloPercentile(CellSummary c, String slo) {
        double p;
        try {
            p = Slo.parse(slo).percentile();
        } catch (BenchException unreadable) {
            return "n/a";
        }
        String label = ServingProfiler.percentileLabel(p);
        return label.substring(ServingProfiler.PREFIX.length()) + " "
                + SummaryTable.num(c.extras().getOrDefault(label, Double.NaN)) + " ms";
    }

    private static String setting(CellSummary c, Set<String> keys) {
        StringBuilder sb = new StringBuilder();
        for (String k : keys) {
            if (!k.equals(ServingSpec.RATE)) {
                sb.append(k).append('=').append(c.params().getOrDefault(k, "")).append('\u0000');
            }
        }
        return sb.toString();
    }

    private static boolean isSearch(CellSummary c) {
        return ServingSpec.MAX_RATE.equals(c.params().get(ServingSpec.RATE));
    }

    private static double offered(CellSummary c) {
        return c.extras().getOrDefault(ServingProfiler.OFFERED, Double.NaN);
    }

    private static String sustainable(CellSummary c) {
        double v = c.extras().getOrDefault(ServingProfiler.SUSTAINABLE, Double.NaN);
        double hw = c.extras().getOrDefault(CellSummary.SUSTAINABLE_HALF_WIDTH, Double.NaN);
        return SummaryTable.num(v) + (Double.isNaN(hw) ? "" : " ± " + SummaryTable.num(hw));
    }

    private static String slo(CellSummary c) {
        String slo = c.params().getOrDefault(ServingSpec.SLO, "none");
        if (slo.equals("none")) {
            return "-";
        }
        double share = c.extras().getOrDefault(ServingProfiler.SLO_MET, Double.NaN);
        if (Double.isNaN(share)) {
            return "n/a";
        }
        int forks = c.mean().forks();
        long met = Math.round(share * forks);
        return (met == forks ? "met" : met == 0 ? "missed" : "met " + met + "/" + forks);
    }

    private static String fig(CellSummary c, String label) {
        return SummaryTable.num(c.extras().getOrDefault(label, Double.NaN));
    }
}

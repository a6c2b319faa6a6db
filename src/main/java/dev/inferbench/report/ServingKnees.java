package dev.inferbench.report;

import dev.inferbench.BenchException;
import dev.inferbench.cell.Cell;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.findings.ForkOutcomes;
import dev.inferbench.findings.Knee;
import dev.inferbench.findings.ServingCells;
import dev.inferbench.generate.GenerationSpec;
import dev.inferbench.generate.RequestLengths;
import dev.inferbench.results.CellSummary;
import dev.inferbench.serve.ServingProfiler;
import dev.inferbench.serve.ServingSpec;
import dev.inferbench.serve.Slo;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The knee lines under the serving table, one per setting with an SLO ({@link Knee} finds them): for a sweep, the
 * highest offered rate met in every fork before the first that was not, and how that one failed (missed, could not
 * tell, or INVALID with its reason); for a search, the sustainable rate with its interval, or the ceiling when the
 * highest rate tried passed.
 */
final class ServingKnees {
    private ServingKnees() {
    }

    /** One line per knee ({@link Knee#of}): for a sweep, the rate met and the next not met; for a search, its rate. */
    static List<String> lines(List<CellSummary> cells) {
        List<String> lines = new ArrayList<>();
        for (Knee knee : Knee.of(cells)) {
            String who = describe(knee.first());
            if (knee instanceof Knee.Search s) {
                lines.add(searchKnee(s, who, knee.slo()));
            } else if (knee instanceof Knee.Sweep s) {
                lines.add(sweepKnee(s, who, knee.slo()));
            }
        }
        return lines;
    }

    private static String sweepKnee(Knee.Sweep k, String who, String slo) {
        String line;
        if (k.met() == null) {
            line = "knee: " + who + ": no offered rate met " + slo + " (the lowest, "
                    + SummaryTable.num(ServingCells.offered(k.sweep().get(0))) + " req/s, "
                    + howMissed(k.sweep().get(0), slo) + ")";
        } else {
            line = "knee: " + who + ": " + SummaryTable.num(ServingCells.offered(k.met())) + " req/s at " + slo
                    + (k.missed() == null ? " (the highest rate tried; every rate met it)"
                    : " (next rate tried, " + SummaryTable.num(ServingCells.offered(k.missed())) + " req/s, "
                    + howMissed(k.missed(), slo) + ")");
        }
        return line + metAbove(k.metAbove());
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
                : (p.containsKey(GenerationSpec.PROMPT_LEN) ? "static" : "dynamic") + " batches of up to "
                + p.getOrDefault(CellSpec.BATCH_SIZE, "1") + " requests within " + wait + " ms";
        return p.get(CellSpec.MODEL) + " on " + p.get(CellSpec.ENGINE) + ", " + batch + ", " + callers + " caller" + (callers == 1 ? "" : "s") + " (" + p.getOrDefault(CellSpec.SHARING, "shared")
                + ") × " + (threads.equals("0") ? "all cores" : threads + " thread" + (threads.equals("1") ? "" : "s"))
                + ", " + p.getOrDefault(ServingSpec.ARRIVALS, "poisson") + " arrivals" + others(p) + over;
    }

    /** The settings the words above leave out, where they differ from their defaults: ", spin=off". */
    private static String others(Map<String, String> p) {
        StringBuilder sb = new StringBuilder();
        p.forEach((k, v) -> {
            if (!DESCRIBED.contains(k) && !v.equals(DEFAULTS.get(k)) && !Cell.unset(k, v)) {
                sb.append(", ").append(k).append('=').append(v);
            }
        });
        return sb.toString();
    }

    private static final Set<String> DESCRIBED = Set.of(CellSpec.MODEL, CellSpec.ENGINE, CellSpec.BATCH_SIZE,
            CellSpec.CALLERS, CellSpec.SHARING, CellSpec.THREADS, ServingSpec.ARRIVALS, ServingSpec.RATE,
            ServingSpec.SLO, ServingSpec.REQUESTS, ServingSpec.STEP_SECONDS, CellSpec.SEQ_LEN, CellSpec.DEVICE,
            ServingSpec.BATCH_WAIT_MS);
    private static final Map<String, String> DEFAULTS = Map.of(CellSpec.SPIN, "on", ServingSpec.IDLE_MS, "0",
            CellSpec.INTER_OP_THREADS, "0", CellSpec.OPT_LEVEL, "all", CellSpec.PRECISION, "fp32",
            CellSpec.DATA, "synthetic", RequestLengths.LENGTHS, RequestLengths.NONE);

    /**
     * The search's line: a knee with its interval and the bracket above it, or a ceiling when the highest rate each
     * fork could try passed; forks whose searches were not monotone are counted.
     */
    private static String searchKnee(Knee.Search k, String who, String slo) {
        CellSummary c = k.cell();
        int forks = k.forks();
        String forkWord = forks + " fork" + (forks == 1 ? "" : "s");
        long ceilings = k.ceilings();
        double failing = k.failing();
        String line;
        if (k.ceiling()) {
            line = "knee: " + who + ": ≥ " + ServingTable.sustainable(c) + " req/s at " + slo + ": the highest rate tried passed"
                    + " (a ceiling, not a knee; " + forkWord + ")";
        } else {
            line = "knee: " + who + ": " + ServingTable.sustainable(c) + " req/s sustainable at " + slo + " (highest rate each fork's"
                    + " search showed met" + (Double.isNaN(failing) || ceilings > 0 ? "" : "; the next, "
                    + SummaryTable.num(failing)
                    + " req/s on average, was not" + limit(k)) + "; " + forkWord
                    + (ceilings > 0 ? "; in " + ceilings + " of them the highest rate tried passed: a ceiling" : "")
                    + ")";
        }
        long nonMonotone = k.nonMonotone();
        return nonMonotone == 0 ? line : line + "; not monotone: " + nonMonotone + " pair(s) of rates met above one not"
                + " met (each fork's 'rate search' line has its steps)";
    }

    /**
     * What set the knee when it was not the SLO: ", INVALID there: the callers fell behind (the service's capacity,
     * not the SLO, set it) in 2 of 2 forks", or the load generator's lateness; "" when the SLO was missed there.
     */
    private static String limit(Knee.Search k) {
        int forks = k.forks();
        long behind = k.behind();
        long late = k.late();
        List<String> why = new ArrayList<>();
        if (behind > 0) {
            why.add("the callers fell behind (the service's capacity set it, not the SLO)" + inForks(behind, forks));
        }
        if (late > 0) {
            why.add("arrivals were late (the load generator set it, not the service)" + inForks(late, forks));
        }
        return why.isEmpty() ? "" : ", INVALID there: " + String.join("; ", why);
    }

    private static String inForks(long some, int forks) {
        return some == forks ? "" : " in " + some + " of " + forks + " forks";
    }

    /** "; not monotone: 12000 req/s met above it" when rates above the first one not met met the SLO in every fork. */
    private static String metAbove(List<CellSummary> metAbove) {
        List<String> above = metAbove.stream().map(c -> SummaryTable.num(ServingCells.offered(c))).toList();
        return above.isEmpty() ? "" : "; not monotone: " + String.join(", ", above) + " req/s met above it";
    }

    /**
     * How a sweep's first rate not met failed: INVALID with the reason, unsure, or missed with its percentile ("in 1 of
     * 2 forks (mean over forks)" when some forks met it, so that a mean below the bound does not read as a
     * contradiction).
     */
    private static String howMissed(CellSummary c, String slo) {
        ForkOutcomes o = ForkOutcomes.of(c);
        int forks = o.forks();
        long invalid = o.invalid();
        if (invalid > 0) {
            return "INVALID" + (invalid == forks ? "" : " in " + invalid + " of " + forks + " forks") + ": "
                    + invalidReasons(c, o);
        }
        long unsure = o.unsure();
        if (unsure > 0) {
            return "could not show it met" + (unsure == forks ? "" : " in " + unsure + " of " + forks + " forks")
                    + ": " + sloPercentile(c, slo) + ", too close to the bound for its requests";
        }
        return "missed it" + missedIn(o) + ": " + sloPercentile(c, slo);
    }

    /** "late arrivals (12.50 % late)" and / or "callers fell behind (served 900.0 of 1000 req/s)". */
    private static String invalidReasons(CellSummary c, ForkOutcomes o) {
        List<String> why = new ArrayList<>();
        if (o.late()) {
            why.add("arrivals late (" + ServingTable.fig(c, ServingProfiler.LATE) + " % over " + ServingTable.fig(c, ServingProfiler.LATE_BOUND)
                    + " ms late)");
        }
        if (o.behind()) {
            why.add("callers fell behind (served " + ServingTable.fig(c, ServingProfiler.RATE) + " of " + SummaryTable.num(ServingCells.offered(c))
                    + " req/s)");
        }
        return why.isEmpty() ? "reason not recorded" : String.join(" and ", why);
    }

    /**
     * "" when every fork missed; " in 1 of 2 forks (mean over forks)" when some met it, so that a mean below the bound
     * does not read as a contradiction.
     */
    private static String missedIn(ForkOutcomes o) {
        int forks = o.forks();
        long met = o.met();
        return met == 0 ? "" : " in " + (forks - met) + " of " + forks + " forks (mean over forks)";
    }

    /**
     * "p90 61.02 ms", "ttft.p99 612.3 ms, tpot.p99 41.2 ms": the cell's value of each SLO term's figure (an unreadable
     * SLO never reached a run).
     */
    private static String sloPercentile(CellSummary c, String slo) {
        List<Slo.Term> terms;
        try {
            terms = Slo.parse(slo).terms();
        } catch (BenchException unreadable) {
            return "n/a";
        }
        List<String> parts = new ArrayList<>();
        for (Slo.Term t : terms) {
            String label = ServingProfiler.label(t);
            parts.add(label.substring(ServingProfiler.PREFIX.length()) + " "
                    + SummaryTable.num(c.extras().getOrDefault(label, Double.NaN)) + " ms");
        }
        return String.join(", ", parts);
    }

}

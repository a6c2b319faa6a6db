package dev.inferbench.report;

import dev.inferbench.stats.Verdict;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.results.MachineState;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import dev.inferbench.compare.CellKey;
import dev.inferbench.compare.Comparer;
import dev.inferbench.compare.Comparison;
import dev.inferbench.stats.Interval;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * The result of {@code compare} as a terminal table or as Markdown (one row per cell and metric); in Markdown the
 * text from the results is escaped as in the report, so a '|' in a param cannot break the table.
 */
public final class CompareTable {

    private CompareTable() {
    }

    /** A cell is named once, on its first row, by the params that vary; the others are listed under the table. */
    public static String text(Comparer.Report report) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(head(report));
        Set<String> varying = varying(report);
        CellKey last = null;
        for (Comparison r : report.rows()) {
            if (!r.cell().equals(last) || !tooFewForks(r)) {
                // a cell without an interval is one line: its other metrics could not tell either, for the same reason
                rows.add(cells(r, r.cell().equals(last) ? "" : r.cell().label(varying), UnaryOperator.identity()));
            }
            last = r.cell();
        }
        return SummaryTable.layout(rows) + footer(report, "", UnaryOperator.identity());
    }

    public static String markdown(Comparer.Report report) {
        StringBuilder sb = new StringBuilder();
        sb.append("| ").append(String.join(" | ", head(report))).append(" |\n");
        sb.append("|").append("---|".repeat(head(report).size())).append('\n');
        Set<String> varying = varying(report);
        CellKey last = null;
        for (Comparison r : report.rows()) {
            if (r.cell().equals(last) && tooFewForks(r)) {
                continue;
            }
            String label = r.cell().equals(last) ? "" : r.cell().label(varying);
            sb.append("| ").append(String.join(" | ", cells(r, label, MarkdownReport::escape)).replace("±", "± "))
                    .append(" |\n");
            last = r.cell();
        }
        return sb.append('\n').append(footer(report, "- ", MarkdownReport::escape)).toString();
    }

    static List<String> head(Comparer.Report report) {
        return List.of("cell", "metric", "unit", "baseline", "candidate", "change",
                String.format(Locale.ROOT, "ratio %.0f%% CI", report.confidence() * 100), "verdict", "gate");
    }

    /**
     * @param label how the row names its cell
     * @param text  how the format shows text from the results (cell label, metric, unit)
     */
    static List<String> cells(Comparison r, String label, UnaryOperator<String> text) {
        return List.of(text.apply(label), text.apply(r.metric()), text.apply(r.unit()),
                withError(r.baseline()), withError(r.candidate()), change(r), ratio(r.ratio()),
                tooFewForks(r) ? tooFewNote(r) : r.verdictWord(), gate(r));
    }

    /** The fewest forks a side that give an interval (unpaired); paired rows need {@value #PAIRS_NEEDED} pairs. */
    public static final int FORKS_NEEDED = 2;
    /** The fewest pairs that give a paired interval. */
    public static final int PAIRS_NEEDED = 3;

    /** A row without an interval because a side has fewer than {@value #FORKS_NEEDED} forks and no pairs stand in. */
    public static boolean tooFewForks(Comparison r) {
        return !r.ratio().known() && !r.paired()
                && Math.min(r.baseline().forks(), r.candidate().forks()) < FORKS_NEEDED;
    }

    /** "1 fork a side; an interval needs 2" (or "1 fork in the baseline, 4 in the candidate; ..."). */
    public static String tooFewNote(Comparison r) {
        int b = r.baseline().forks();
        int c = r.candidate().forks();
        String forks = b == c ? b + " fork" + (b == 1 ? "" : "s") + " a side"
                : b + " fork" + (b == 1 ? "" : "s") + " in the baseline, " + c + " in the candidate";
        return forks + "; an interval needs " + FORKS_NEEDED;
    }

    /**
     * A gated row: FAIL when it regressed at the gate family's confidence, "can't tell" when it could not tell (never a
     * silent pass), else pass; blank outside the gate.
     */
    static String gate(Comparison r) {
        return !r.gated() ? "" : r.gateVerdict() == Verdict.WORSE ? "FAIL"
                : r.gateVerdict() == Verdict.INCONCLUSIVE ? "can't tell" : "pass";
    }

    /**
     * Which interval the ratios come from: "ratio intervals: paired over 12 fork pairs (forks run side by side)" /
     * "... from independent sides (Welch)" / both, with the row counts, so a reader knows whether drift was cancelled.
     */
    static String method(Comparer.Report report) {
        List<Comparison> paired = report.rows().stream().filter(Comparison::paired).toList();
        int welch = report.rows().size() - paired.size();
        if (paired.isEmpty()) {
            return "ratio intervals: the two sides as independent samples (Welch); the runs' forks were not measured"
                    + " side by side";
        }
        int fewest = paired.stream().mapToInt(r -> r.pairs().count()).min().orElse(0);
        int most = paired.stream().mapToInt(r -> r.pairs().count()).max().orElse(0);
        int leftOut = paired.stream().mapToInt(r -> r.pairs().leftOut()).max().orElse(0);
        int disturbed = paired.stream().mapToInt(r -> r.pairs().disturbed()).max().orElse(0);
        return "ratio intervals: paired, over the per-pair ratios of forks run side by side ("
                + (fewest == most ? fewest + "" : fewest + "-" + most) + " pairs"
                + (leftOut > 0 ? ", " + leftOut + " unpaired forks left out" : "")
                + (disturbed > 0 ? ", " + disturbed + " pair" + (disturbed == 1 ? "" : "s")
                + String.format(Locale.ROOT, " left out: the machine was disturbed (a canary %.0f %% or more"
                + " slower than its median, or other processes %.2f cores or more above theirs; --keep-disturbed"
                + " keeps them)", MachineState.SLOW_CANARY * 100, MachineState.BURST_CORES) : "")
                + ")"
                + (welch > 0 ? "; " + welch + " rows unpaired (Welch)" : "");
    }

    /** The params whose values differ between the cells of the report (a param some cells lack differs too). */
    public static Set<String> varying(Comparer.Report report) {
        List<Map<String, String>> params = params(report);
        Set<String> names = new TreeSet<>();
        params.forEach(p -> names.addAll(p.keySet()));
        ConstantParams.split(params, names, Set.of());
        return names;
    }

    /** The params every cell has with the same value, by name. */
    private static Map<String, String> shared(Comparer.Report report) {
        List<Map<String, String>> params = params(report);
        Set<String> names = new TreeSet<>();
        params.forEach(p -> names.addAll(p.keySet()));
        Map<String, String> shared = ConstantParams.split(params, names, Set.of());
        // a seqLen that no compared model takes is not a setting of these cells
        Map<CellKey, Set<String>> metrics = new java.util.LinkedHashMap<>();
        report.rows().forEach(r -> metrics.computeIfAbsent(r.cell(), k -> new java.util.HashSet<>()).add(r.metric()));
        if (!metrics.isEmpty() && !SeqLenShown.of(metrics.values())) {
            shared.remove(CellSpec.SEQ_LEN);
        }
        return shared;
    }

    /** Every cell's params, matched or on one side only. */
    private static List<Map<String, String>> params(Comparer.Report report) {
        List<CellKey> keys = new ArrayList<>();
        report.rows().forEach(r -> keys.add(r.cell()));
        keys.addAll(report.onlyBaseline());
        keys.addAll(report.onlyCandidate());
        return keys.stream().map(k -> ConstantParams.shown(k.params())).toList();
    }

    /**
     * The estimate ± its interval's reach as a share of it; where the interval holds 0 (a growth rate of memory that
     * is flat, around 0 either way) a share says nothing (the old "-1565 ±100.6%"), and the half-width is given as is.
     */
    static String withError(Interval i) {
        double rel = i.relativeError();
        if (Double.isNaN(rel)) {
            return SummaryTable.num(i.estimate()) + " ±n/a";
        }
        return rel >= 1 ? SummaryTable.num(i.estimate()) + " ±" + SummaryTable.num(i.halfWidth())
                : SummaryTable.num(i.estimate()) + String.format(Locale.ROOT, " ±%.1f%%", rel * 100);
    }

    /** The relative change; n/a where a side is not above 0 (no ratio of a signed figure means anything). */
    private static String change(Comparison r) {
        if (!(r.baseline().estimate() > 0 && r.candidate().estimate() > 0)) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "%+.1f%%", (r.ratio().estimate() - 1) * 100);
    }

    private static String ratio(Interval r) {
        return r.known() ? String.format(Locale.ROOT, "%.3f [%.3f, %.3f]", r.estimate(), r.lower(), r.upper())
                : String.format(Locale.ROOT, "%.3f [n/a: %d fork%s]", r.estimate(), r.forks(), r.forks() == 1 ? "" : "s");
    }

    static String footer(Comparer.Report report, String bullet, UnaryOperator<String> text) {
        StringBuilder sb = new StringBuilder();
        sb.append(bullet).append(String.format(Locale.ROOT,
                "ratio = candidate / baseline; minimum effect %.1f%%; intervals with forks as the unit%n",
                report.minEffect() * 100));
        sb.append(bullet).append(method(report)).append('\n');
        String shared = ConstantParams.line("every cell", shared(report));
        if (!shared.isEmpty()) {
            sb.append(bullet).append(text.apply(shared)).append('\n');
        }
        sb.append(bullet).append(String.format(Locale.ROOT, "gate: %s, %d row%s, each at %s%% so that the gate as a"
                        + " whole errs at most %.0f%% of the time (Bonferroni); the other rows are shown, not gated%n",
                String.join(",", new TreeSet<>(report.gate())), report.family(), report.family() == 1 ? "" : "s",
                SummaryTable.num(report.gateConfidence() * 100), (1 - report.confidence()) * 100));
        Set<String> varying = varying(report);
        for (CellKey k : report.onlyBaseline()) {
            sb.append(bullet).append("only in baseline: ").append(text.apply(k.label(varying))).append('\n');
        }
        for (CellKey k : report.onlyCandidate()) {
            sb.append(bullet).append("only in candidate: ").append(text.apply(k.label(varying))).append('\n');
        }
        // a cell both sides have keeps its rows; the gated metric one side lacks is named here, as it has no row
        report.missing().stream().filter(m -> !m.wholeCell()).forEach(m -> sb.append(bullet)
                .append("gated metric ").append(text.apply(m.metric())).append(" missing in ").append(m.lackingSide())
                .append(": ").append(text.apply(m.cell().label(varying))).append('\n'));
        return sb.toString();
    }
}

package dev.inferbench.report;

import dev.inferbench.stats.Verdict;
import dev.inferbench.cell.CellSpec;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import dev.inferbench.compare.CellKey;
import dev.inferbench.compare.Comparer;
import dev.inferbench.compare.Comparison;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The result of {@code compare} as a terminal table or as Markdown (one row per cell and metric); in Markdown the
 * text from the results is escaped as in the report, so a '|' in a param cannot break the table. By default a table
 * shows the gated rows and those whose change is shown (their ratio's interval excludes 1), then one line counting
 * the rest: a cell has some 30 metrics, and a screen of rows within noise hides the one that moved.
 */
public final class CompareTable {

    private CompareTable() {
    }

    /** The default table: the gated rows and those whose change is shown. */
    public static String text(Comparer.Report report) {
        return text(report, false);
    }

    /**
     * A cell is named once, on its first row shown, by the params that vary; the others are listed under the table.
     *
     * @param all every row ({@code compare -v}), not only the gated ones and those whose change is shown
     */
    public static String text(Comparer.Report report, boolean all) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(head(report));
        Set<String> varying = varying(report);
        Shown shown = shown(report, all);
        CellKey last = null;
        for (Comparison r : shown.rows()) {
            rows.add(cells(r, r.cell().equals(last) ? "" : r.cell().label(varying), UnaryOperator.identity()));
            last = r.cell();
        }
        return SummaryTable.layout(rows) + shown.line().map(l -> l + "\n").orElse("")
                + footer(report, "", UnaryOperator.identity());
    }

    public static String markdown(Comparer.Report report) {
        return markdown(report, false);
    }

    /** @param all every row ({@code compare -v}) */
    public static String markdown(Comparer.Report report, boolean all) {
        StringBuilder sb = new StringBuilder();
        sb.append("| ").append(String.join(" | ", head(report))).append(" |\n");
        sb.append("|").append("---|".repeat(head(report).size())).append('\n');
        Set<String> varying = varying(report);
        Shown shown = shown(report, all);
        CellKey last = null;
        for (Comparison r : shown.rows()) {
            String label = r.cell().equals(last) ? "" : r.cell().label(varying);
            sb.append("| ").append(String.join(" | ", cells(r, label, MarkdownReport::escape)).replace("±", "± "))
                    .append(" |\n");
            last = r.cell();
        }
        sb.append('\n');
        shown.line().ifPresent(l -> sb.append("- ").append(l).append('\n'));
        return sb.append(footer(report, "- ", MarkdownReport::escape)).toString();
    }

    /**
     * The rows a table shows, and the line that counts the others ("28 more metrics within noise; -v shows all").
     *
     * @param within the rows left out whose ratio interval holds 1
     * @param none   the rows left out that have no ratio interval (a mean of 0 on a side, ...)
     */
    private record Shown(List<Comparison> rows, int within, int none) {
        Optional<String> line() {
            int hidden = within + none;
            if (hidden == 0) {
                return Optional.empty();
            }
            String metrics = hidden + " more metric" + (hidden == 1 ? "" : "s");
            String counted = within == 0 ? metrics + " without a ratio interval"
                    : none == 0 ? metrics + " within noise"
                    : metrics + ": " + within + " within noise, " + none + " without a ratio interval";
            return Optional.of(counted + "; -v shows all");
        }
    }

    /**
     * A cell without an interval is one line in every case: its other metrics could not tell either, for the same
     * reason. Otherwise a row is shown when it is gated, when its change is shown, or when all are asked for.
     */
    private static Shown shown(Comparer.Report report, boolean all) {
        List<Comparison> rows = new ArrayList<>();
        int within = 0;
        int none = 0;
        CellKey last = null;
        for (Comparison r : report.rows()) {
            boolean first = !r.cell().equals(last);
            last = r.cell();
            if (tooFewForks(r)) {
                if (first) {
                    rows.add(r);
                }
            } else if (all || r.gated() || changeShown(r)) {
                rows.add(r);
            } else if (r.ratio().known()) {
                within++;
            } else {
                none++;
            }
        }
        return new Shown(rows, within, none);
    }

    /** Whether the row's ratio interval excludes 1: a change is shown, whatever its verdict says of its size. */
    public static boolean changeShown(Comparison r) {
        return r.ratio().known() && !r.ratio().contains(1);
    }

    static List<String> head(Comparer.Report report) {
        return List.of("cell", "metric", "unit", "baseline ± (unit)", "candidate ± (unit)", "change",
                String.format(Locale.ROOT, "ratio %.0f%% CI", report.confidence() * 100), "verdict", "gate");
    }

    /**
     * @param label how the row names its cell
     * @param text  how the format shows text from the results (cell label, metric, unit)
     */
    static List<String> cells(Comparison r, String label, UnaryOperator<String> text) {
        CompareFigures f = CompareFigures.of(r);
        return List.of(text.apply(label), text.apply(r.metric()), text.apply(f.unit()), f.baseline(), f.candidate(),
                CompareFigures.change(r), CompareFigures.ratio(r), tooFewForks(r) ? tooFewNote(r) : r.verdictWord(),
                gate(r));
    }

    /** The ratio and its interval as the table prints it, or why it has none; never NaN. */
    public static String ratioText(Comparison r) {
        return CompareFigures.ratio(r);
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

    static String footer(Comparer.Report report, String bullet, UnaryOperator<String> text) {
        StringBuilder sb = new StringBuilder();
        sb.append(bullet).append(String.format(Locale.ROOT,
                "ratio = candidate / baseline; ± = half each side's %.0f%% interval, in the row's unit; minimum effect"
                        + " %.1f%%; intervals with forks as the unit%n", report.confidence() * 100,
                report.minEffect() * 100));
        sb.append(bullet).append(PairingLine.of(report)).append('\n');
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

package dev.inferbench.report;

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

    public static String text(Comparer.Report report) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(head(report));
        report.rows().forEach(r -> rows.add(cells(r, UnaryOperator.identity())));
        return SummaryTable.layout(rows) + footer(report, "", UnaryOperator.identity());
    }

    public static String markdown(Comparer.Report report) {
        StringBuilder sb = new StringBuilder();
        sb.append("| ").append(String.join(" | ", head(report))).append(" |\n");
        sb.append("|").append("---|".repeat(head(report).size())).append('\n');
        for (Comparison r : report.rows()) {
            sb.append("| ").append(String.join(" | ", cells(r, MarkdownReport::escape)).replace("±", "± ")).append(" |\n");
        }
        return sb.append('\n').append(footer(report, "- ", MarkdownReport::escape)).toString();
    }

    static List<String> head(Comparer.Report report) {
        return List.of("cell", "metric", "unit", "baseline", "candidate", "change",
                String.format(Locale.ROOT, "ratio %.0f%% CI", report.confidence() * 100), "verdict");
    }

    /** @param text how the format shows text from the results (cell label, metric, unit) */
    static List<String> cells(Comparison r, UnaryOperator<String> text) {
        return List.of(text.apply(r.cell().label()), text.apply(r.metric()), text.apply(r.unit()),
                withError(r.baseline()), withError(r.candidate()), change(r.ratio().estimate()), ratio(r.ratio()),
                r.verdictWord());
    }

    private static String withError(Interval i) {
        double rel = i.relativeError();
        return SummaryTable.num(i.estimate()) + (Double.isNaN(rel) ? " ±n/a" : String.format(Locale.ROOT, " ±%.1f%%", rel * 100));
    }

    private static String change(double ratio) {
        return String.format(Locale.ROOT, "%+.1f%%", (ratio - 1) * 100);
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
        for (CellKey k : report.onlyBaseline()) {
            sb.append(bullet).append("only in baseline: ").append(text.apply(k.label())).append('\n');
        }
        for (CellKey k : report.onlyCandidate()) {
            sb.append(bullet).append("only in candidate: ").append(text.apply(k.label())).append('\n');
        }
        return sb.toString();
    }
}

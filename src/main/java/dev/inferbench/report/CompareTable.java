package dev.inferbench.report;

import dev.inferbench.compare.CellKey;
import dev.inferbench.compare.Comparer;
import dev.inferbench.compare.Comparison;
import dev.inferbench.stats.Interval;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The result of {@code compare} as a terminal table or as Markdown (one row per cell and metric). */
public final class CompareTable {

    private CompareTable() {
    }

    public static String text(Comparer.Report report) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(head(report));
        report.rows().forEach(r -> rows.add(cells(r)));
        return SummaryTable.layout(rows) + footer(report, "");
    }

    public static String markdown(Comparer.Report report) {
        StringBuilder sb = new StringBuilder();
        sb.append("| ").append(String.join(" | ", head(report))).append(" |\n");
        sb.append("|").append("---|".repeat(head(report).size())).append('\n');
        for (Comparison r : report.rows()) {
            sb.append("| ").append(String.join(" | ", cells(r)).replace("±", "± ")).append(" |\n");
        }
        return sb.append('\n').append(footer(report, "- ")).toString();
    }

    private static List<String> head(Comparer.Report report) {
        return List.of("cell", "metric", "unit", "baseline", "candidate", "change",
                String.format(Locale.ROOT, "ratio %.0f%% CI", report.confidence() * 100), "verdict");
    }

    private static List<String> cells(Comparison r) {
        return List.of(r.cell().label(), r.metric(), r.unit(), withError(r.baseline()), withError(r.candidate()),
                change(r.ratio().estimate()), ratio(r.ratio()), r.verdictWord());
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

    private static String footer(Comparer.Report report, String bullet) {
        StringBuilder sb = new StringBuilder();
        sb.append(bullet).append(String.format(Locale.ROOT,
                "ratio = candidate / baseline; minimum effect %.1f%%; intervals with forks as the unit%n",
                report.minEffect() * 100));
        for (CellKey k : report.onlyBaseline()) {
            sb.append(bullet).append("only in baseline: ").append(k.label()).append('\n');
        }
        for (CellKey k : report.onlyCandidate()) {
            sb.append(bullet).append("only in candidate: ").append(k.label()).append('\n');
        }
        return sb.toString();
    }
}

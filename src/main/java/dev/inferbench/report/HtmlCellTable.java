package dev.inferbench.report;

import dev.inferbench.results.MetricGroup;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import static dev.inferbench.report.HtmlReport.escape;

/**
 * One model's table in report.html: the params every row shares in a line above it, a checkbox per metric group
 * that folds the group's columns (groups not {@link #OPEN open by default} start folded, so the page reads the same
 * before and without its script), a header row naming the groups over the columns' own header row.
 */
final class HtmlCellTable {
    /**
     * Open by default: what a run is mostly asked (how fast: latency, throughput) and, where a run has it, what a
     * variant costs in output quality (a few columns, only in runs that measured it, and then the point of the run).
     * Folded: memory, the model's own figures, startup and CPU/GC, which a reader opens when the question is theirs.
     */
    private static final Set<MetricGroup> OPEN = EnumSet.of(MetricGroup.LATENCY, MetricGroup.THROUGHPUT,
            MetricGroup.QUALITY);

    private HtmlCellTable() {
    }

    /** The CSS class of the group's cells ({@code g-memory}) and, on a table where it is folded, {@code fold-memory}. */
    private static String id(MetricGroup g) {
        return g.name().toLowerCase(Locale.ROOT);
    }

    /** The rules that hide a folded group's cells: {@code .fold-memory .g-memory}, one per group. */
    static String css() {
        StringBuilder sb = new StringBuilder();
        for (MetricGroup g : MetricGroup.values()) {
            sb.append(".fold-").append(id(g)).append(" .g-").append(id(g)).append(" { display: none; }\n");
        }
        return sb.toString();
    }

    /**
     * @param id     the table's element id, unique in the page
     * @param flames per row, its flame graph links; a last column when any row has some
     */
    static void write(PrintWriter out, ReportTable g, String id, Map<ReportRow, String> flames) {
        List<ReportTable.Column> columns = g.columns();
        Map<MetricGroup, Integer> groups = new LinkedHashMap<>();
        columns.stream().map(ReportTable.Column::group).filter(Objects::nonNull)
                .forEach(m -> groups.merge(m, 1, Integer::sum));
        out.println("<h2>" + escape(g.name()) + "</h2>");
        if (!g.constantsLine().isEmpty()) {
            out.println("<p class=\"same\">" + escape(g.constantsLine()) + "</p>");
        }
        List<String> folded = new ArrayList<>();
        if (groups.size() > 1) {
            out.print("<p class=\"fold\">columns:");
            groups.forEach((m, n) -> out.print(" <label><input type=\"checkbox\" data-table=\"" + id + "\" data-group=\""
                    + id(m) + "\"" + (OPEN.contains(m) ? " checked" : "") + "> " + escape(m.label()) + " (" + n + ")</label>"));
            out.println("</p>");
            groups.keySet().stream().filter(m -> !OPEN.contains(m)).forEach(m -> folded.add("fold-" + id(m)));
        }
        out.println("<table id=\"" + id + "\" class=\"" + String.join(" ", prepend("cells", folded)) + "\"><thead>");
        if (groups.size() > 1) {
            out.print("<tr class=\"groups\">");
            for (int i = 0; i < columns.size(); ) {
                MetricGroup m = columns.get(i).group();
                int span = 1;
                while (i + span < columns.size() && columns.get(i + span).group() == m) {
                    span++;
                }
                out.print("<th" + (span > 1 ? " colspan=\"" + span + "\"" : "") + (m == null ? ">" : " class=\"g-"
                        + id(m) + "\">" + escape(m.label())) + "</th>");
                i += span;
            }
            out.println(flames.isEmpty() ? "</tr>" : "<th></th></tr>");
        }
        out.print("<tr>");
        columns.forEach(c -> out.print("<th" + groupClass(c, "") + ">" + title(c.title()) + "</th>"));
        out.println(flames.isEmpty() ? "</tr></thead><tbody>" : "<th>flame graphs</th></tr></thead><tbody>");
        for (ReportRow r : g.rows()) {
            out.print(r.warnings().isEmpty() ? "<tr>" : "<tr class=\"unstable\" title=\""
                    + escape(String.join("; ", r.warnings())) + "\">");
            List<ReportTable.Value> values = g.values(r);
            for (int i = 0; i < values.size(); i++) {
                ReportTable.Value v = values.get(i);
                String cls = (v.numeric() ? "num" : "") + (v.best() ? " best" : "")
                        + (columns.get(i).title().equals(ReportTable.WARNINGS) ? " stability" : "");
                out.print("<td" + groupClass(columns.get(i), cls) + ">" + escape(v.text()) + "</td>");
            }
            out.println(flames.isEmpty() ? "</tr>" : "<td>" + flames.getOrDefault(r, "") + "</td></tr>");
        }
        out.println("</tbody></table>");
    }

    /** "p50 (µs)" on two lines, name over unit: a column is then as wide as its numbers, not its heading. */
    private static String title(String title) {
        int unit = title.lastIndexOf(" (");
        return unit < 0 ? escape(title) : escape(title.substring(0, unit)) + "<br><span class=\"unit\">"
                + escape(title.substring(unit + 1)) + "</span>";
    }

    /** {@code class="num best g-latency"}, or nothing when there is no class. */
    private static String groupClass(ReportTable.Column c, String cls) {
        String all = (cls + (c.group() == null ? "" : " g-" + id(c.group()))).strip();
        return all.isEmpty() ? "" : " class=\"" + all + "\"";
    }

    private static List<String> prepend(String first, List<String> rest) {
        List<String> all = new ArrayList<>(List.of(first));
        all.addAll(rest);
        return all;
    }
}

package dev.inferbench.report;

import dev.inferbench.results.CellSummary;

import java.io.PrintWriter;
import java.util.List;

/**
 * A section of the report with a table of its own (serving, training), written one way in every output: the terminal
 * summary, Markdown and HTML. Its table is text, the header first; cells matching {@code numeric} are right-aligned.
 *
 * @param title     the Markdown and HTML heading ("Serving")
 * @param heading   what its figures are, one line; the terminal's heading
 * @param same      the params every cell of the section shares, a line, or empty
 * @param lines     lines under the table (a serving knee, a note)
 * @param lineClass the HTML class of those lines
 */
record TableSection(String title, String heading, List<List<String>> rows, String numeric, String same, List<String> lines,
               String lineClass) {

    static TableSection empty(String title) {
        return new TableSection(title, "", List.of(), "", "", List.of(), "");
    }

    /** A cell's secondary metric, NaN where it has none. */
    static double fig(CellSummary c, String metric) {
        return c.extras().getOrDefault(metric, Double.NaN);
    }

    boolean isEmpty() {
        return rows.size() < 2;
    }

    /** As the terminal summary prints it; empty when the section has no cell. */
    String render() {
        if (isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("\n" + heading + ":\n");
        sb.append(SummaryTable.layout(rows));
        if (!same.isEmpty()) {
            sb.append(same).append('\n');
        }
        lines.forEach(l -> sb.append(l).append('\n'));
        return sb.toString();
    }

    void markdown(PrintWriter out) {
        if (isEmpty()) {
            return;
        }
        out.println();
        out.println("## " + title);
        out.println();
        out.println(MarkdownReport.escape(heading) + ".");
        out.println();
        if (!same.isEmpty()) {
            out.println(MarkdownReport.escape(same) + ".");
            out.println();
        }
        MarkdownReport.table(out, rows.get(0), values());
        out.println();
        lines.forEach(l -> out.println("- " + MarkdownReport.escape(l)));
    }

    private List<List<ReportTable.Value>> values() {
        return rows.stream().skip(1).map(row -> row.stream()
                .map(v -> new ReportTable.Value(v, false, v.matches(numeric))).toList()).toList();
    }

    void html(PrintWriter out) {
        if (isEmpty()) {
            return;
        }
        out.println("<h2>" + HtmlReport.escape(title) + "</h2><p>" + HtmlReport.escape(heading) + ".</p>");
        if (!same.isEmpty()) {
            out.println("<p class=\"same\">" + HtmlReport.escape(same) + "</p>");
        }
        HtmlReport.table(out, "", rows.get(0), values());
        lines.forEach(l -> out.println("<p class=\"" + lineClass + "\">" + HtmlReport.escape(l) + "</p>"));
    }
}

package dev.inferbench.report;

import dev.inferbench.compare.Comparer;
import dev.inferbench.compare.CellKey;
import dev.inferbench.compare.Comparison;
import dev.inferbench.compare.Where;

import java.io.PrintWriter;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The result of {@code compare} as one self-contained HTML page: the report's styles and script (sortable,
 * filterable table), one row per cell and metric with its verdict coloured, then the cells only one side has. A row
 * names its cell by the params that tell the cells apart, as the text table does; the full name is its title and,
 * hidden, what the filter box matches.
 * Every text from the results is escaped as in the report.
 */
public final class CompareHtml {
    /** Columns from the baseline figure to the ratio: right-aligned numbers. */
    private static final int FIRST_NUMBER = 3;
    private static final int LAST_NUMBER = 6;
    /** The verdict's column, coloured by the verdict. */
    private static final int VERDICT = 7;

    private CompareHtml() {
    }

    /** @param baseline and @param candidate how the page names the two runs (their folders or files) */
    public static void write(Comparer.Report report, String baseline, String candidate, Writer w) {
        write(report, baseline, candidate, Map.of(), w);
    }

    /**
     * As above, with the "where" table of each gated row that shows one ({@link WhereTable}) under the table, and a
     * link to the differential flame graph of its passes where one was drawn.
     */
    public static void write(Comparer.Report report, String baseline, String candidate, Map<CellKey, Where> where,
                             Writer w) {
        PrintWriter out = new PrintWriter(w);
        out.println("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>inferbench compare</title>");
        out.println("<style>\n" + HtmlReport.resource("report.css") + HtmlReport.resource("compare.css")
                + "</style></head><body>");
        out.println("<h1>inferbench compare</h1>");
        out.println("<p>Baseline: " + HtmlReport.escape(baseline) + "; candidate: " + HtmlReport.escape(candidate)
                + ".</p>");
        out.println("<p><input id=\"filter\" type=\"search\" placeholder=\"filter rows (e.g. batchSize=8, slower)\"></p>");
        out.println("<table class=\"cells\"><thead><tr>");
        CompareTable.head(report).forEach(h -> out.print("<th>" + HtmlReport.escape(h) + "</th>"));
        out.println("</tr></thead><tbody>");
        Set<String> varying = CompareTable.varying(report);
        for (Comparison r : report.rows()) {
            // a row shows what tells its cell apart (the params every cell shares are in the notes under the table),
            // and holds the full name hidden and as its title: the filter box matches every param
            String full = r.cell().label();
            String shown = r.cell().label(varying);
            List<String> cells = new ArrayList<>(CompareTable.cells(r, shown, HtmlReport::escape));
            if (!full.equals(shown)) {
                cells.set(0, "<span title=\"" + HtmlReport.escape(full) + "\">" + cells.get(0) + "</span><span hidden> "
                        + HtmlReport.escape(full) + "</span>");
            }
            out.print("<tr>");
            for (int i = 0; i < cells.size(); i++) {
                String css = i >= FIRST_NUMBER && i <= LAST_NUMBER ? " class=\"num\""
                        : i == VERDICT ? " class=\"" + r.verdict().name().toLowerCase(Locale.ROOT).replace('_', '-') + "\""
                        : "";
                out.print("<td" + css + ">" + cells.get(i) + "</td>");
            }
            out.println("</tr>");
        }
        out.println("</tbody></table>\n<ul>");
        CompareTable.footer(report, "", HtmlReport::escape).lines().forEach(l -> out.println("<li>" + l + "</li>"));
        out.println("</ul>");
        for (Comparison r : report.rows()) {
            Where wh = where.get(r.cell());
            if (wh == null || !WhereTable.shown(r)) {
                continue;
            }
            String label = r.cell().label(varying);
            out.println("<h2>Where: " + HtmlReport.escape(label) + "</h2>");
            boolean link = wh.frames() != null && wh.frames().flameDiff() != null;
            // the page links the differential flame graph under the table instead of printing its path in it
            out.println("<pre>" + HtmlReport.escape(WhereTable.text(label, wh, !link)) + "</pre>");
            if (link) {
                out.println("<p><a href=\"" + HtmlReport.escape(wh.frames().flameDiff().toAbsolutePath().toUri().toString())
                        + "\">differential flame graph of the passes</a> (head against base; red: hotter in head)</p>");
            }
        }
        out.println("<script>\n" + HtmlReport.resource("report.js") + "</script>\n</body></html>");
        out.flush();
    }
}

package dev.inferbench.report;

import dev.inferbench.results.CellSummary;
import dev.inferbench.serve.ServingSpec;
import dev.inferbench.results.MachineState;
import dev.inferbench.results.RunLayout;
import org.knowm.xchart.VectorGraphicsEncoder;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * report.html: one self-contained page that works offline (CSS, script and SVG plots inline, nothing fetched):
 * the tables of the Markdown report ({@link HtmlCellTable}: sortable, filterable, their metric groups foldable), the
 * plots, links to each cell's flame graphs, and each run's environment. Every text from the results is escaped.
 */
final class HtmlReport {
    private HtmlReport() {
    }

    static void write(ReportInput input, List<ReportRow> rows, List<Plots.Plot> plots, Path reportDir, Writer w)
            throws IOException {
        PrintWriter out = new PrintWriter(w);
        Map<String, Path> runDirs = new HashMap<>();
        input.runs().forEach(r -> runDirs.put(r.label(), r.dir()));
        out.println("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>inferbench report</title>");
        out.println("<style>\n" + resource("report.css") + HtmlCellTable.css() + "</style></head><body>");
        out.println("<h1>inferbench report</h1>");
        out.println("<p>Runs: " + escape(String.join(", ", input.runs().stream().map(ReportInput.Run::label).toList()))
                + ". Mean &plusmn; half-width of the " + ReportRows.intervalLegend() + "; bold: best in"
                + " its group; &#9888;: unstable (hover the row); the checkboxes above a table show or fold its"
                + " groups of columns.</p>");
        out.println("<p><input id=\"filter\" type=\"search\" placeholder=\"filter rows (e.g. ort, batchSize=8)\"></p>");
        Map<ReportRow, String> flames = new HashMap<>();
        for (ReportRow r : rows) {
            String links = flameLinks(runDirs.get(r.run()), r.cellId(), reportDir);
            if (!links.isEmpty()) {
                flames.put(r, links);
            }
        }
        List<ReportRow> serving = rows.stream().filter(r -> ServingSpec.isServingCell(r.params())).toList();
        int table = 0;
        for (ReportTable g : ReportTable.of(rows.stream().filter(r -> !serving.contains(r)).toList())) {
            HtmlCellTable.write(out, g, "cells-" + table++, flames);
            if (SideBySide.applies(input)) {
                SideBySide side = new SideBySide(g, input.runs());
                table(out, "<p>Side by side:</p>", side.header(), side.rows());
            }
        }
        BatchFindings.findingsByRun(rows.stream().filter(r -> !serving.contains(r)).toList())
                .forEach(l -> out.println("<p class=\"saturation\">" + escape(l) + "</p>"));
        List<ModelScaling.Row> across = ModelScaling.rows(rows.stream().filter(r -> !serving.contains(r)).toList());
        if (!across.isEmpty()) {
            out.println(ModelScaling.html(across));
        }
        ServingTable.table(serving.stream().map(r -> CellSummary.of(r.source())).toList()).html(out);
        TrainingTable.table(rows.stream().map(r -> CellSummary.of(r.source())).toList()).html(out);
        GenerationTable.table(rows.stream().map(r -> CellSummary.of(r.source())).toList()).html(out);
        LayerSection.of(input, rows).html(out);
        TailTimeline.of(input, rows).html(out);
        if (!plots.isEmpty()) {
            out.println("<h2>Plots</h2>");
            int i = 0;
            for (Plots.Plot p : plots) {
                out.println("<figure id=\"plot-" + escape(p.name()) + "\">" + inlineSvg(p, "p" + i++ + "-") + "</figure>");
            }
        }
        for (ReportInput.Run run : input.runs()) {
            String machine = MachineState.of(run.allForks()).map(m -> "<p class=\"machine\">" + escape(m.line())
                    + "</p>").orElse("") + String.join("", run.headline().stream()
                    .map(h -> "<p class=\"machine\">" + escape(h) + "</p>").toList());
            out.println("<h2>Environment: " + escape(run.label()) + "</h2>" + machine + "<table class=\"env\"><tbody>");
            run.environment().forEach((k, v) -> out.println("<tr><td>" + escape(k) + "</td><td>" + escape(v) + "</td></tr>"));
            out.println("</tbody></table>");
        }
        out.println("<script>\n" + resource("report.js") + "</script>\n</body></html>");
        out.flush();
    }

    /** A table of values, numeric ones right-aligned and the best marked; {@code before} stands on its first line. */
    static void table(PrintWriter out, String before, List<String> header, List<List<ReportTable.Value>> rows) {
        out.println(before + "<table class=\"cells\"><thead><tr>");
        header.forEach(h -> out.print("<th>" + escape(h) + "</th>"));
        out.println("</tr></thead><tbody>");
        for (List<ReportTable.Value> row : rows) {
            out.print("<tr>");
            row.forEach(v -> out.print((v.best() ? "<td class=\"num best\">" : v.numeric() ? "<td class=\"num\">" : "<td>")
                    + escape(v.text()) + "</td>"));
            out.println("</tr>");
        }
        out.println("</tbody></table>");
    }

    /**
     * Links to the cell's flame graphs, relative to the report's folder: where FlameHook and -prof async put them,
     * {@code flames/<cell-id>/} (merged graphs first, then each fork's), then ORT's operator flame graph,
     * {@code op-profile/<cell-id>/ops.html}.
     */
    private static String flameLinks(Path runDir, String cellId, Path reportDir) throws IOException {
        if (runDir == null) {
            return "";
        }
        List<String> links = new ArrayList<>();
        Path flames = runDir.resolve(RunLayout.FLAMES).resolve(cellId);
        if (Files.isDirectory(flames)) {
            try (Stream<Path> files = Files.walk(flames)) {
                files.filter(f -> f.getFileName().toString().endsWith(".html"))
                        .sorted(Comparator.comparing((Path f) -> !f.getParent().equals(flames)).thenComparing(f -> f))
                        .forEach(f -> links.add(link(f, flames.relativize(f).toString(), reportDir)));
            }
        }
        Path ops = runDir.resolve(RunLayout.OP_PROFILE).resolve(cellId).resolve("ops.html");
        if (Files.isRegularFile(ops)) {
            links.add(link(ops, "ops.html", reportDir));
        }
        return String.join(" ", links);
    }

    private static String link(Path file, String name, Path reportDir) {
        String href = reportDir.toAbsolutePath().normalize().relativize(file.toAbsolutePath().normalize())
                .toString().replace('\\', '/');
        return "<a href=\"" + escape(href) + "\">" + escape(name.replace('\\', '/')) + "</a>";
    }

    /** The chart as an SVG element; ids prefixed so that the clip paths of several inline charts don't collide. */
    private static String inlineSvg(Plots.Plot p, String idPrefix) throws IOException {
        ByteArrayOutputStream svg = new ByteArrayOutputStream();
        VectorGraphicsEncoder.saveVectorGraphic(p.chart(), svg, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
        String s = svg.toString(StandardCharsets.UTF_8);
        s = s.substring(s.indexOf("<svg"));
        return s.replace("id=\"", "id=\"" + idPrefix).replace("url(#", "url(#" + idPrefix)
                .replace("href=\"#", "href=\"#" + idPrefix);
    }

    static String resource(String name) {
        try (InputStream in = HtmlReport.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("report resource " + name + " missing from the jar", e);
        }
    }

    static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String e = entity(c, true);
            sb.append(e != null ? e : String.valueOf(c));
        }
        return sb.toString();
    }

    /** The entity for an HTML metacharacter, else null; quotes only where they could end an attribute value. */
    static String entity(char c, boolean quotes) {
        return switch (c) {
            case '<' -> "&lt;";
            case '>' -> "&gt;";
            case '&' -> "&amp;";
            case '"' -> quotes ? "&quot;" : null;
            case '\'' -> quotes ? "&#39;" : null;
            default -> null;
        };
    }
}

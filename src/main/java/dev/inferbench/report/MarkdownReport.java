package dev.inferbench.report;

import dev.inferbench.results.CellSummary;
import dev.inferbench.serve.ServingSpec;
import dev.inferbench.results.MachineState;
import java.io.PrintWriter;
import java.io.Writer;
import java.util.List;

/**
 * report.md: one table per model (best value per column in bold; the params every row shares said once above it,
 * the others as columns), stability warnings, then each run's environment. Text from the results (names, params, paths) is escaped so it shows as written and stays inert.
 */
final class MarkdownReport {
    private MarkdownReport() {
    }

    static void write(ReportInput input, List<ReportRow> rows, Writer w) {
        PrintWriter out = new PrintWriter(w);
        out.println("# inferbench report");
        out.println();
        out.println("Runs: " + String.join(", ", input.runs().stream().map(r -> escape(r.label())).toList())
                + ". Mean ± half-width of the " + ReportRows.intervalLegend() + ";"
                + " **bold**: best in its group.");
        List<ReportRow> serving = rows.stream().filter(r -> ServingSpec.isServingCell(r.params())).toList();
        for (ReportTable g : ReportTable.of(rows.stream().filter(r -> !serving.contains(r)).toList())) {
            out.println();
            out.println("## " + escape(g.name()));
            out.println();
            if (!g.constantsLine().isEmpty()) {
                out.println(escape(g.constantsLine()) + ".");
                out.println();
            }
            table(out, g.header(), g.rows().stream().map(g::values).toList());
            if (SideBySide.applies(input)) {
                SideBySide side = new SideBySide(g, input.runs());
                out.println();
                out.println("Side by side:");
                out.println();
                table(out, side.header(), side.rows());
            }
        }
        List<String> saturation = BatchFindings.findingsByRun(rows.stream().filter(r -> !serving.contains(r)).toList());
        if (!saturation.isEmpty()) {
            out.println();
            saturation.forEach(l -> out.println("- " + escape(l)));
        }
        List<ModelScaling.Row> across = ModelScaling.rows(rows.stream().filter(r -> !serving.contains(r)).toList());
        if (!across.isEmpty()) {
            out.println();
            out.println("## Across models");
            out.println();
            table(out, ModelScaling.HEADER, ModelScaling.values(across));
        }
        ServingTable.table(serving.stream().map(r -> CellSummary.of(r.source())).toList()).markdown(out);
        TrainingTable.table(rows.stream().map(r -> CellSummary.of(r.source())).toList()).markdown(out);
        GenerationTable.table(rows.stream().map(r -> CellSummary.of(r.source())).toList()).markdown(out);
        LayerSection.of(input, rows).markdown(out);
        for (ReportInput.Run run : input.runs()) {
            out.println();
            out.println("## Environment: " + escape(run.label()));
            out.println();
            MachineState.of(run.allForks()).ifPresent(m -> {
                out.println(escape(m.line()));
                out.println();
            });
            for (String line : run.headline()) {
                out.println(escape(line));
                out.println();
            }
            if (run.environment().isEmpty()) {
                out.println("No environment.json or run.properties in " + escape(String.valueOf(run.dir())) + ".");
                continue;
            }
            table(out, List.of("key", "value"), run.environment().entrySet().stream().map(e -> List.of(
                    new ReportTable.Value(e.getKey(), false, false), new ReportTable.Value(e.getValue(), false, false)))
                    .toList());
        }
        out.flush();
    }

    static void table(PrintWriter out, List<String> header, List<List<ReportTable.Value>> rows) {
        out.println("| " + String.join(" | ", header.stream().map(MarkdownReport::escape).toList()) + " |");
        StringBuilder rule = new StringBuilder("|");
        rows.get(0).forEach(v -> rule.append(v.numeric() ? " ---: |" : " --- |"));
        out.println(rule);
        for (List<ReportTable.Value> row : rows) {
            StringBuilder line = new StringBuilder("|");
            for (ReportTable.Value v : row) {
                String text = escape(v.text());
                line.append(' ').append(v.best() && !text.isEmpty() ? "**" + text + "**" : text).append(" |");
            }
            out.println(line);
        }
    }

    /** Inert in a GitHub table: HTML metacharacters as entities, Markdown's as escapes, newlines as line breaks. */
    static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String entity = HtmlReport.entity(c, false);
            if (entity != null) {
                sb.append(entity);
            } else if (c == '\n') {
                sb.append("<br>");
            } else if ("|\\*_`[]#".indexOf(c) >= 0) {
                sb.append('\\').append(c);
            } else if (c != '\r') {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}

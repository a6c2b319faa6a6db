package dev.inferbench.cli;

import dev.inferbench.ExitCode;
import dev.inferbench.results.CallFigures;
import dev.inferbench.results.RunLayout;
import dev.inferbench.stats.Percentiles;
import dev.inferbench.BenchException;
import dev.inferbench.report.Reports;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** {@code report RUN...}: the report of one or more run folders or JMH result files. */
final class ReportCommand implements Subcommand {
    private static final Options OPTIONS = new Options("report", "RUN...")
            .row("RUN...", "run folders or JMH JSON result files");
    private static final Options.Flag<Path> OUT = OPTIONS.value("-o", "DIR", Options.FOLDER, null,
            "where the report goes (default: RUN/report/, or report/ beside a result file)");
    private static final Options.Flag<Set<Reports.Format>> FORMAT = OPTIONS.value("--format", "LIST",
            new Options.Type<>("formats such as md,html", (t, f) -> Reports.parseFormats(t)),
            EnumSet.allOf(Reports.Format.class), "some of " + String.join(",", EnumSet.allOf(Reports.Format.class)
                    .stream().map(f -> f.name().toLowerCase(Locale.ROOT)).toList()) + " (default: all)");
    private static final Options.Flag<double[]> PERCENTILES = OPTIONS.value("--percentiles", "LIST",
            new Options.Type<>("percentiles, e.g. 50,90,99.9", (t, f) -> Percentiles.parseList(t)),
            CallFigures.DEFAULT_PERCENTILES, "the percentiles of the calls in the tables and exports, e.g. 50,90,99.9"
                    + " (default: 50,90,95,99 in the tables; 50,90,99 in the exports)");

    @Override
    public String summary() {
        return OPTIONS.synopsis() + ": Markdown/HTML/CSV report, plots and exports of run folders or result files"
                + " (default: all, into RUN/report/ or report/ beside the file)";
    }

    @Override
    public String usage() {
        return OPTIONS.usage("""
                The report of one or more run folders or JMH result files: Markdown, HTML, CSV, plots and exports
                (several runs: side by side).
                """, "");
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws BenchException {
        Options.Parsed p = OPTIONS.parse(args);
        List<Path> runs = p.operands().stream().map(Path::of).toList();
        Path target = p.get(OUT);
        Set<Reports.Format> formats = p.get(FORMAT);
        double[] percentiles = p.get(PERCENTILES);
        if (runs.isEmpty()) {
            throw new BenchException("report needs a run folder; expected e.g. report results/20261122-171500-abc1234");
        }
        Path dir = target != null ? target : defaultFolder(runs.get(0));
        List<Path> written = Reports.write(runs, dir, formats, percentiles);
        out.println("inferbench: report of " + runs.size() + " run folder" + (runs.size() == 1 ? "" : "s") + " in "
                + dir + " (" + written.size() + " files)");
        return ExitCode.OK;
    }

    /** {@code RUN/report/} for a run folder; for a result file, {@code report/} beside it. */
    static Path defaultFolder(Path run) {
        if (!Files.isRegularFile(run)) {
            return run.resolve(RunLayout.REPORT);
        }
        Path parent = run.getParent();
        return parent == null ? Path.of(RunLayout.REPORT) : parent.resolve(RunLayout.REPORT);
    }
}

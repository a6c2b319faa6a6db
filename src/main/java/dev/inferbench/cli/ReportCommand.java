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
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** {@code report RUN... [-o DIR] [--format md,html,...]}: the report of one or more run folders or JMH result files. */
final class ReportCommand implements Subcommand {

    @Override
    public String summary() {
        return "report RUN... [-o DIR] [--format md,html,csv,gab,bmf,jmh,plots] [--percentiles 50,90,99.9]:"
                + " Markdown/HTML/CSV report, plots and exports of run folders or result files (default: all, into"
                + " RUN/report/ or report/ beside the file)";
    }

    @Override
    public String usage() {
        return USAGE_PREFIX + """
                report RUN... [-o DIR] [--format LIST] [--percentiles LIST]
                The report of one or more run folders or JMH result files: Markdown, HTML, CSV, plots and exports
                (several runs: side by side).
                  RUN...          run folders or JMH JSON result files
                  -o DIR          where the report goes (default: RUN/report/, or report/ beside a result file)
                  --format LIST   some of %s (default: all)
                  --percentiles LIST  the percentiles of the calls in the tables and exports, e.g. 50,90,99.9
                                  (default: 50,90,95,99 in the tables; 50,90,99 in the exports)
                """.formatted(String.join(",", EnumSet.allOf(Reports.Format.class).stream()
                .map(f -> f.name().toLowerCase(Locale.ROOT)).toList()));
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws BenchException {
        List<Path> runs = new ArrayList<>();
        Path target = null;
        Set<Reports.Format> formats = EnumSet.allOf(Reports.Format.class);
        double[] percentiles = CallFigures.DEFAULT_PERCENTILES;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("-o") || a.equals("--format") || a.equals("--percentiles")) {
                String v = FlagValue.of(args, ++i, a, a.equals("-o") ? "a folder"
                        : a.equals("--format") ? "formats such as md,html" : "percentiles, e.g. 50,90,99.9");
                if (a.equals("-o")) {
                    target = Path.of(v);
                } else if (a.equals("--format")) {
                    formats = Reports.parseFormats(v);
                } else {
                    percentiles = Percentiles.parseList(v);
                }
            } else if (a.startsWith("-")) {
                throw new BenchException("unknown option '" + a + "' for report; expected run folders, -o DIR,"
                        + " --format LIST, --percentiles LIST");
            } else {
                runs.add(Path.of(a));
            }
        }
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

package dev.inferbench.cli;

import dev.inferbench.results.RunLayout;
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
        return "report RUN... [-o DIR] [--format md,html,csv,gab,bmf,jmh,plots]: Markdown/HTML/CSV report, plots and"
                + " exports of run folders or result files (default: all, into RUN/report/ or report/ beside the file)";
    }

    @Override
    public String usage() {
        return USAGE_PREFIX + """
                report RUN... [-o DIR] [--format LIST]
                The report of one or more run folders or JMH result files: Markdown, HTML, CSV, plots and exports
                (several runs: side by side).
                  RUN...          run folders or JMH JSON result files
                  -o DIR          where the report goes (default: RUN/report/, or report/ beside a result file)
                  --format LIST   some of %s (default: all)
                """.formatted(String.join(",", EnumSet.allOf(Reports.Format.class).stream()
                .map(f -> f.name().toLowerCase(Locale.ROOT)).toList()));
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws BenchException {
        List<Path> runs = new ArrayList<>();
        Path target = null;
        Set<Reports.Format> formats = EnumSet.allOf(Reports.Format.class);
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("-o") || a.equals("--format")) {
                if (i + 1 >= args.size()) {
                    throw new BenchException(a + " needs a value; expected " + (a.equals("-o") ? "a folder" : "formats such as md,html"));
                }
                String v = args.get(++i);
                if (a.equals("-o")) {
                    target = Path.of(v);
                } else {
                    formats = Reports.parseFormats(v);
                }
            } else if (a.startsWith("-")) {
                throw new BenchException("unknown option '" + a + "' for report; expected run folders, -o DIR, --format LIST");
            } else {
                runs.add(Path.of(a));
            }
        }
        if (runs.isEmpty()) {
            throw new BenchException("report needs a run folder; expected e.g. report results/20261122-171500-abc1234");
        }
        Path dir = target != null ? target : defaultFolder(runs.get(0));
        List<Path> written = Reports.write(runs, dir, formats);
        out.println("inferbench: report of " + runs.size() + " run folder" + (runs.size() == 1 ? "" : "s") + " in "
                + dir + " (" + written.size() + " files)");
        return Main.OK;
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

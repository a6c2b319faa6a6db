package dev.inferbench.cli;

import dev.inferbench.ExitCode;
import java.util.Optional;
import dev.inferbench.BenchException;
import dev.inferbench.report.Trend;
import dev.inferbench.results.History;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code history [DIR] [-o OUT]}: the runs filed in the history folder (each finished run is, see
 * {@code run.history}), and the trend of every cell across their commits as {@code trend.md} and charts.
 */
final class HistoryCommand implements Subcommand {
    private static final Options OPTIONS = new Options("history", "[DIR]")
            .row("DIR", "the history folder (default: run.history in benchmarks.properties, else "
                    + History.DEFAULT_ROOT + ")");
    private static final Options.Flag<Path> OUT = OPTIONS.value("-o", "OUT",
            Options.FOLDER.expecting("a folder for the trend report"), null, "where the trend goes (default: DIR/trend)");
    private static final Options.Flag<Path> CONFIG = ConfigFlag.declare(OPTIONS);

    @Override
    public String summary() {
        return OPTIONS.synopsis() + ": the runs filed in the history folder (run.history, default "
                + History.DEFAULT_ROOT + ") and each cell's trend across commits (trend.md, plots/trend-*.svg|png)";
    }

    @Override
    public String usage() {
        return OPTIONS.usage("""
                Lists the runs filed in the history folder (each finished run is, see run.history) and writes the trend
                of every cell across their commits as trend.md and charts.
                """, "");
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws BenchException {
        Options.Parsed p = OPTIONS.parse(args);
        if (p.operands().size() > 1) {
            throw new BenchException("unexpected argument '" + p.operands().get(1) + "' for history; expected: "
                    + OPTIONS.synopsis());
        }
        Path root = p.operands().isEmpty() ? null : Path.of(p.operands().get(0));
        Path target = p.get(OUT);
        if (root == null) {
            root = History.root(ConfigFlag.load(p.get(CONFIG))).orElseThrow(() -> new BenchException("run.history is empty in "
                    + "benchmarks.properties (no history is kept); expected a history folder: history DIR"));
        }
        List<History.Entry> entries = History.entries(root);
        String env = null;
        for (History.Entry e : entries) {
            if (!e.environment().equals(env)) {
                env = e.environment();
                out.println("environment " + env + " (" + e.cpu() + "):");
            }
            // eight runs of one commit share its time: the run's own says which is which
            out.println("  " + e.commitTime() + "  " + e.shortCommit() + "  " + e.run()
                    + (e.runTime().isEmpty() ? "" : "  ran " + e.runTime()));
        }
        Path dir = target != null ? target : root.resolve("trend");
        List<Path> written = Trend.write(entries, dir);
        out.println("inferbench: trend of " + entries.size() + " run" + (entries.size() == 1 ? "" : "s") + " in "
                + dir.resolve("trend.md") + " (" + written.size() + " files)");
        return ExitCode.OK;
    }
}

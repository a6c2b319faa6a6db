package dev.inferbench.report;

import dev.inferbench.AtomicFile;
import java.util.Objects;
import java.util.Arrays;
import dev.inferbench.BenchException;
import dev.inferbench.results.Headline;
import dev.inferbench.results.History;
import dev.inferbench.results.jmh.MeasuredCell;
import dev.inferbench.results.jmh.JmhJson;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The trend of every cell across the commits in the history folder: per environment (figures from different
 * machines are never one line) and per model, a table of each commit's mean with its interval over fork means, and a
 * chart with a line per cell. Cells are matched by benchmark and all params, as compare matches them.
 */
public final class Trend {
    /** The cells of one model in one environment: per cell label, the row of each commit (null where absent). */
    private record Series(String environment, String cpu, String model, List<String> commits,
                          Map<String, ReportRow[]> cells) {
    }

    private Trend() {
    }

    /** Writes {@code trend.md} and {@code plots/trend-*.svg|png} into {@code out}; returns the files written. */
    public static List<Path> write(List<History.Entry> entries, Path out) throws BenchException {
        if (entries.isEmpty()) {
            throw new BenchException("the history holds no runs yet; expected runs filed by finished benchmark runs");
        }
        List<Series> all = series(entries);
        List<Plots.Plot> plots = new ArrayList<>();
        for (Series s : all) {
            plots.add(chart(s));
        }
        try {
            Files.createDirectories(out);
            List<Path> written = new ArrayList<>(Plots.writeFiles(plots, out.resolve(Plots.FOLDER)));
            Path md = out.resolve("trend.md");
            AtomicFile.write(md, o -> {
                Writer w = new java.io.OutputStreamWriter(o, StandardCharsets.UTF_8);
                markdown(all, w);
                w.flush();
            });
            written.add(md);
            return written;
        } catch (IOException e) {
            throw new BenchException("cannot write the trend to " + out + ": " + e.getMessage()
                    + "; expected a writable folder (-o DIR)", e);
        }
    }

    private static List<Series> series(List<History.Entry> entries) throws BenchException {
        Map<String, List<History.Entry>> byEnv = new LinkedHashMap<>();
        entries.forEach(e -> byEnv.computeIfAbsent(e.environment(), k -> new ArrayList<>()).add(e));
        List<Series> out = new ArrayList<>();
        for (List<History.Entry> env : byEnv.values()) {
            List<String> commits = new ArrayList<>();
            Map<String, Map<String, ReportRow[]>> byModel = new LinkedHashMap<>();
            for (int i = 0; i < env.size(); i++) {
                History.Entry e = env.get(i);
                commits.add(e.shortCommit() + (env.stream().filter(o -> o.commit().equals(e.commit())).count() > 1
                        ? " " + e.run() : ""));
                for (MeasuredCell c : Headline.ofFolder(e.result(), JmhJson.read(e.result())).cells()) {
                    ReportRow r = ReportRows.of(e.shortCommit(), c);
                    byModel.computeIfAbsent(r.group(), k -> new LinkedHashMap<>())
                            .computeIfAbsent(label(r), k -> new ReportRow[env.size()])[i] = r;
                }
            }
            History.Entry first = env.get(0);
            byModel.forEach((model, cells) -> out.add(withoutEmptyRuns(new Series(first.environment(), first.cpu(),
                    model, commits, cells))));
        }
        return out;
    }

    /** The runs in which this model has at least one cell: a run of other models is no point of its trend. */
    private static Series withoutEmptyRuns(Series s) {
        List<Integer> used = new ArrayList<>();
        for (int i = 0; i < s.commits().size(); i++) {
            int run = i;
            if (s.cells().values().stream().anyMatch(rows -> rows[run] != null)) {
                used.add(i);
            }
        }
        Map<String, ReportRow[]> cells = new LinkedHashMap<>();
        s.cells().forEach((cell, rows) -> cells.put(cell, used.stream().map(i -> rows[i]).toArray(ReportRow[]::new)));
        return new Series(s.environment(), s.cpu(), s.model(), used.stream().map(s.commits()::get).toList(), cells);
    }

    /** What tells the cells of one model apart: benchmark, mode and every param but the model. */
    private static String label(ReportRow r) {
        StringBuilder sb = new StringBuilder(r.source().shortName());
        r.params().forEach((k, v) -> {
            if (!k.equals("model")) {
                sb.append(' ').append(k).append('=').append(v);
            }
        });
        return sb.toString();
    }

    private static String unit(Series s) {
        return Units.choose(s.cells().values().stream().flatMap(rows -> Arrays.stream(rows))
                .filter(Objects::nonNull).toList());
    }

    private static Plots.Plot chart(Series s) {
        String unit = unit(s);
        String title = s.model() + " on " + s.cpu() + ": mean per commit, " + ReportRows.intervalLegend();
        CategoryChart chart = Plots.categories(title, "commit", "mean (" + unit + ")");
        chart.getStyler().setDefaultSeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Line);
        s.cells().forEach((cell, rows) -> {
            List<Double> means = new ArrayList<>();
            List<Double> errors = new ArrayList<>();
            for (ReportRow r : rows) {
                means.add(r == null ? null : Units.convert(r.mean(), r.unit(), unit));
                double e = r == null ? Double.NaN : Units.convert(r.halfWidth(), r.unit(), unit);
                errors.add(Double.isNaN(e) ? 0.0 : e);
            }
            chart.addSeries(cell, s.commits(), means, errors);
        });
        String name = "trend-" + s.environment() + "-" + s.model().replaceAll("[^A-Za-z0-9._-]", "_");
        return new Plots.Plot(name, title, Plots.styled(chart));
    }

    private static void markdown(List<Series> all, Writer w) {
        PrintWriter out = new PrintWriter(w);
        out.println("# Trend across commits");
        out.println();
        out.println("Each column is one run filed in the history, headed by its commit (`+`: built from uncommitted "
                + "changes); each cell shows the mean ± the " + ReportRows.intervalLegend() + ". The last column is the"
                + " newest mean over the oldest.");
        String env = null;
        for (Series s : all) {
            if (!s.environment().equals(env)) {
                env = s.environment();
                out.println();
                out.println("## Environment " + env + " (" + MarkdownReport.escape(s.cpu()) + ")");
            }
            String unit = unit(s);
            out.println();
            out.println("### " + MarkdownReport.escape(s.model()) + " (" + unit + ")");
            out.println();
            out.print("| cell |");
            s.commits().forEach(c -> out.print(" " + MarkdownReport.escape(c) + " |"));
            out.println(" newest / oldest |");
            out.println("|---|" + "---:|".repeat(s.commits().size()) + "---:|");
            s.cells().forEach((cell, rows) -> {
                out.print("| " + MarkdownReport.escape(cell) + " |");
                ReportRow oldest = null;
                ReportRow newest = null;
                for (ReportRow r : rows) {
                    out.print(" " + (r == null ? "" : figure(r, unit)) + " |");
                    if (r != null) {
                        oldest = oldest == null ? r : oldest;
                        newest = r;
                    }
                }
                out.println(" " + (oldest == null || oldest == newest ? "" : String.format(Locale.ROOT, "%.3f",
                        Units.convert(newest.mean(), newest.unit(), oldest.unit()) / oldest.mean())) + " |");
            });
        }
        out.flush();
    }

    private static String figure(ReportRow r, String unit) {
        String mean = Units.format(Units.convert(r.mean(), r.unit(), unit));
        double hw = Units.convert(r.halfWidth(), r.unit(), unit);
        return Double.isNaN(hw) ? mean : mean + " ± " + Units.format(hw);
    }
}

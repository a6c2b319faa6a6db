package dev.inferbench.report;

import dev.inferbench.AtomicFile;
import java.util.concurrent.Future;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ExecutionException;
import java.util.HashSet;
import java.io.InterruptedIOException;
import java.io.FilterWriter;
import dev.inferbench.results.CallFigures;
import dev.inferbench.results.RunLayout;
import dev.inferbench.BenchException;
import dev.inferbench.EnumLookup;
import dev.inferbench.results.jmh.JmhJsonWriter;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Writes the report of one or more run folders: {@code report.md}, {@code report.html} (with the plots inlined),
 * {@code report.csv}, {@code plots/*.png|svg}, and the exports {@code jmh-visualizer.json},
 * {@code gab-smaller-is-better.json}, {@code gab-bigger-is-better.json}, {@code bencher.json}.
 */
public final class Reports {
    /** The folder inside a run folder that the report goes to by default. */

    /** What can be written; {@code plots} are the PNG/SVG files and the HTML report's figures. */
    public enum Format {
        MD, HTML, CSV, GAB, BMF, JMH, PLOTS;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private Reports() {
    }

    /** The whole report of a finished run into {@code runDir/report/}: what the run loop calls at its end. */
    public static Path writeAll(Path runDir) throws BenchException {
        return writeAll(runDir, CallFigures.DEFAULT_PERCENTILES);
    }

    /** The same with the percentiles of the calls a user chose ({@code --percentiles}). */
    public static Path writeAll(Path runDir, double[] percentiles) throws BenchException {
        Path out = RunLayout.of(runDir).report();
        write(List.of(runDir), out, EnumSet.allOf(Format.class), percentiles);
        return out;
    }

    /** {@code md,html} to formats; one line naming the choices for an unknown one. */
    public static Set<Format> parseFormats(String list) throws BenchException {
        Set<Format> formats = EnumSet.noneOf(Format.class);
        for (String name : list.split(",")) {
            formats.add(EnumLookup.parse(Format.values(), Format::label, "report format",
                    name.strip().toLowerCase(Locale.ROOT)));
        }
        return formats;
    }

    /**
     * Writes the formats side by side, one per core (they only read the rows, and a big matrix's report takes
     * markedly less wall time so: docs/evidence/report-speed.md); the plots first, as the HTML report embeds them.
     *
     * @return the files written, in the order of the formats
     */
    public static List<Path> write(List<Path> runDirs, Path out, Set<Format> formats) throws BenchException {
        return write(runDirs, out, formats, CallFigures.DEFAULT_PERCENTILES);
    }

    /** The same with the percentiles of the calls a user chose ({@code --percentiles}) in the tables and exports. */
    public static List<Path> write(List<Path> runDirs, Path out, Set<Format> formats, double[] percentiles)
            throws BenchException {
        ReportInput input = ReportInput.load(runDirs);
        List<ReportRow> rows = input.rows(percentiles);
        List<Path> written = new ArrayList<>();
        try {
            Files.createDirectories(out);
            List<Plots.Plot> plots = formats.contains(Format.PLOTS)
                    ? LayerPlots.with(Plots.of(rows), LayerSection.of(input, rows)) : List.of();
            if (!plots.isEmpty()) {
                written.addAll(Plots.writeFiles(plots, out.resolve(Plots.FOLDER)));
            }
            List<FileTask> tasks = new ArrayList<>();
            if (formats.contains(Format.MD)) {
                tasks.add(() -> text(out.resolve("report.md"), w -> MarkdownReport.write(input, rows, w)));
            }
            if (formats.contains(Format.HTML)) {
                tasks.add(() -> text(out.resolve("report.html"), w -> HtmlReport.write(input, rows, plots, out, w)));
            }
            if (formats.contains(Format.CSV)) {
                tasks.add(() -> text(out.resolve("report.csv"), w -> CsvReport.write(rows, percentiles, w)));
            }
            if (formats.contains(Format.GAB)) {
                tasks.add(() -> bytes(out.resolve("gab-smaller-is-better.json"), o -> Exports.githubActionBenchmark(rows, percentiles, false, o)));
                tasks.add(() -> bytes(out.resolve("gab-bigger-is-better.json"), o -> Exports.githubActionBenchmark(rows, percentiles, true, o)));
            }
            if (formats.contains(Format.BMF)) {
                tasks.add(() -> bytes(out.resolve("bencher.json"), o -> Exports.bencher(rows, percentiles, o)));
            }
            if (formats.contains(Format.JMH)) {
                Set<String> names = new HashSet<>();
                for (ReportInput.Run run : input.runs()) {
                    String stem = input.runs().size() == 1 ? "jmh-visualizer"
                            : "jmh-visualizer-" + run.label().replaceAll("[^A-Za-z0-9._-]", "_");
                    String name = stem + ".json";
                    for (int n = 2; !names.add(name); n++) { // "r 1" and "r_1" must not share a file
                        name = stem + "-" + n + ".json";
                    }
                    Path file = out.resolve(name);
                    tasks.add(() -> bytes(file, o -> JmhJsonWriter.writeForVisualizer(run.files(), o)));
                }
            }
            written.addAll(runAll(tasks));
        } catch (IOException e) {
            throw new BenchException("cannot write the report to " + out + ": " + e.getMessage()
                    + "; expected a writable folder (-o DIR)", e);
        }
        return written;
    }

    /** One report file to write. */
    private interface FileTask {
        Path write() throws IOException;
    }

    /** Runs the tasks on up to one thread per core; their files in task order, or the first failure in task order. */
    private static List<Path> runAll(List<FileTask> tasks) throws IOException {
        if (tasks.isEmpty()) {
            return List.of();
        }
        int threads = Math.min(tasks.size(), Runtime.getRuntime().availableProcessors());
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "inferbench-report");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<Path>> futures = new ArrayList<>();
            for (FileTask t : tasks) {
                futures.add(pool.submit(t::write));
            }
            // Every task is waited for, even after one failed: the others still write their files, and none may
            // still be writing into the folder when the caller hears of the failure (it may delete the folder).
            List<Path> files = new ArrayList<>();
            Throwable first = null;
            for (Future<Path> f : futures) {
                try {
                    files.add(f.get());
                } catch (ExecutionException e) {
                    if (first == null) {
                        first = e.getCause();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while writing the report");
                }
            }
            if (first instanceof IOException io) {
                throw io;
            }
            if (first instanceof RuntimeException re) {
                throw re;
            }
            if (first != null) {
                throw (Error) first;
            }
            return files;
        } finally {
            pool.shutdownNow();
        }
    }

    private interface TextBody {
        void write(Writer w) throws IOException;
    }

    private static Path text(Path file, TextBody body) throws IOException {
        AtomicFile.write(file, o -> {
            FailureKeeping w = new FailureKeeping(new java.io.OutputStreamWriter(o, StandardCharsets.UTF_8));
            body.write(w);
            w.flush();
            w.rethrow();
        });
        return file;
    }

    /**
     * The formats print through {@link java.io.PrintWriter}, which swallows write errors: a full disk gave a report
     * "written" with exit 0. This writer keeps the first error so that {@link #text} can throw it after all.
     */
    static final class FailureKeeping extends FilterWriter {
        private IOException failure;

        FailureKeeping(Writer out) {
            super(out);
        }

        private IOException keep(IOException e) {
            if (failure == null) {
                failure = e;
            }
            return e;
        }

        @Override
        public void write(int c) throws IOException {
            try {
                out.write(c);
            } catch (IOException e) {
                throw keep(e);
            }
        }

        @Override
        public void write(char[] cbuf, int off, int len) throws IOException {
            try {
                out.write(cbuf, off, len);
            } catch (IOException e) {
                throw keep(e);
            }
        }

        @Override
        public void write(String str, int off, int len) throws IOException {
            try {
                out.write(str, off, len);
            } catch (IOException e) {
                throw keep(e);
            }
        }

        @Override
        public void flush() throws IOException {
            try {
                out.flush();
            } catch (IOException e) {
                throw keep(e);
            }
        }

        void rethrow() throws IOException {
            if (failure != null) {
                throw failure;
            }
        }
    }

    private static Path bytes(Path file, AtomicFile.Body<IOException> body) throws IOException {
        AtomicFile.write(file, body);
        return file;
    }
}

package dev.inferbench.calibration;

import dev.inferbench.BenchException;
import dev.inferbench.compare.Comparer;
import dev.inferbench.compare.Comparison;
import dev.inferbench.compare.RunReader;
import dev.inferbench.plant.BusyNeighbour;
import dev.inferbench.results.RunLayout;
import dev.inferbench.results.jmh.JmhJson;
import dev.inferbench.results.jmh.MeasuredCell;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Every planted truth of {@link CalibrationRows} run through this jar as a user would run it (a run of its own per
 * setting, in its own folder under {@code out}), each figure read from the run's JSON as the summary reads it, and
 * the table of planted value against reading printed, one row at a time as its run ends. A row whose run failed
 * reads nothing and fails.
 */
public final class CalibrationTable {
    /** The slowdown the comparison row plants, in %. */
    static final int SLOWDOWN = 10;

    /**
     * One row's outcome.
     *
     * @param reading NaN when the run gave nothing to read
     */
    public record Outcome(CalibrationRows.Row row, double reading) {
        public boolean holds() {
            return row.holds(reading);
        }
    }

    private final Path jar;
    private final Path out;
    private final PrintStream console;
    private final Map<CalibrationRows.Run, Path> done = new LinkedHashMap<>();

    public CalibrationTable(Path jar, Path out, PrintStream console) {
        this.jar = jar;
        this.out = out;
        this.console = console;
    }

    /**
     * Runs the rows ({@code fast}: only those that take seconds; {@code only}: those whose figure contains one of
     * them, none for all) and returns their outcomes.
     */
    public List<Outcome> run(boolean fast, List<String> only) throws BenchException {
        List<CalibrationRows.Row> rows = CalibrationRows.all().stream()
                .filter(r -> (!fast || r.fast()) && (only.isEmpty() || only.stream().anyMatch(r.figure()::contains)))
                .toList();
        if (rows.isEmpty()) {
            throw new BenchException("no calibration row's figure names '" + String.join("' or '", only) + "'"
                    + (fast ? " among the fast rows" : "") + "; expected a part of a figure's name, e.g. sustainable,"
                    + " alloc, gen.");
        }
        try {
            Files.createDirectories(out);
        } catch (IOException e) {
            throw new BenchException("cannot create " + out + " (" + e.getMessage() + "); expected a writable folder", e);
        }
        List<Outcome> outcomes = new ArrayList<>();
        console.println(header());
        for (CalibrationRows.Row row : rows) {
            Outcome o = new Outcome(row, reading(row));
            outcomes.add(o);
            console.println(line(o));
        }
        return outcomes;
    }

    private double reading(CalibrationRows.Row row) throws BenchException {
        if (row.metric().equals(CalibrationRows.RATIO)) {
            return ratio(row.run());
        }
        Path dir = ran(row.run());
        if (DisturbedRows.reads(row.metric())) {
            return dir == null ? Double.NaN : DisturbedRows.read(dir, cells(dir), row);
        }
        if (TailRows.reads(row.metric())) {
            Path plain = ran(row.baseline());
            return dir == null || plain == null ? Double.NaN : TailRows.read(cells(dir), cells(plain), row);
        }
        double reading = dir == null ? Double.NaN : CalibrationRows.read(cells(dir), row.metric());
        if (row.baseline() == null) {
            return reading;
        }
        Path base = ran(row.baseline());
        return base == null ? Double.NaN : reading - CalibrationRows.read(cells(base), row.metric());
    }

    /**
     * The comparison row: this checkout against itself with the slowdown aid on the head side, forks interleaved and
     * paired as a CI gate runs them ({@code compare-commits . .}), and compare's paired ratio. Run one after
     * the other, the two sides' fork means differ by more than the slowdown on a shared VM; interleaved, the pairs
     * cancel the drift. Needs the checkout the jar was built in (its tools/ beside target/).
     */
    private double ratio(CalibrationRows.Run run) throws BenchException {
        Path checkout = jar.toAbsolutePath().getParent().getParent();
        Path script = checkout.resolve("tools").resolve("compare-commits.sh");
        Path dir = out.resolve(run.name()).toAbsolutePath();
        if (!Files.isRegularFile(script)) {
            console.println("  (" + run.name() + ": no " + script + "; the comparison row runs from a checkout)");
            return Double.NaN;
        }
        List<String> command = new ArrayList<>(List.of("bash", script.toString(), ".", "."));
        command.addAll(run.args());
        command.addAll(List.of("--out", dir.toString(), "--seed", "1",
                "--head-args", "-jvmArgsAppend -Dinferbench.slowdown=" + SLOWDOWN));
        int status = launch(command, checkout, run.name());
        if (status != 0 && status != 1 && status != 3) {
            console.println("  (run " + run.name() + " ended with exit code " + status + "; its output is in "
                    + out.resolve(run.name() + ".log") + ")");
            return Double.NaN;
        }
        Comparer.Report report = Comparer.compare(RunReader.read(dir.resolve("base")),
                RunReader.read(dir.resolve("head")), 0.03, 0.95);
        return report.rows().stream().filter(Comparison::gated).mapToDouble(c -> c.ratio().estimate()).findFirst()
                .orElse(Double.NaN);
    }

    private static List<MeasuredCell> cells(Path dir) throws BenchException {
        Path json = dir.resolve(RunLayout.RESULT);
        return Files.isRegularFile(json) ? JmhJson.read(json) : List.of();
    }

    /** The run's folder once it has run (a run shared by rows runs once); null when it failed. */
    private Path ran(CalibrationRows.Run run) throws BenchException {
        if (done.containsKey(run)) {
            return done.get(run);
        }
        Path dir = out.resolve(run.name());
        List<String> command = new ArrayList<>(List.of(javaBinary(), "-jar", jar.toString()));
        command.addAll(run.args());
        command.addAll(List.of("-v", "SILENT", "--run-dir", dir.toString()));
        int status;
        if (run.neighbour() == null) {
            status = launch(command, null, run.name());
        } else {
            CalibrationRows.Neighbour n = run.neighbour();
            try {
                Files.deleteIfExists(DisturbedRows.windows(dir));
            } catch (IOException e) {
                throw new BenchException("cannot clear " + DisturbedRows.windows(dir) + " (" + e.getMessage() + ")", e);
            }
            try (BusyNeighbour beside = BusyNeighbour.startPeriodic(n.busy(), n.period(), n.delay(),
                    DisturbedRows.windows(dir))) {
                status = launch(command, null, run.name());
            }
        }
        Path result = status == 0 ? dir : null;
        if (result == null) {
            console.println("  (run " + run.name() + " ended with exit code " + status + "; its output is in "
                    + out.resolve(run.name() + ".log") + ")");
        }
        done.put(run, result);
        return result;
    }

    /** Runs {@code command} (in {@code cwd}, or this one when null) to its end, its output to NAME.log; its exit code. */
    private int launch(List<String> command, Path cwd, String name) throws BenchException {
        try {
            ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(out.resolve(name + ".log").toFile());
            if (cwd != null) {
                b.directory(cwd.toFile());
            }
            return b.start().waitFor();
        } catch (IOException e) {
            throw new BenchException("cannot start " + String.join(" ", command) + " (" + e.getMessage() + ")", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchException("interrupted while " + name + " ran", e);
        }
    }

    static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    static String header() {
        return "| figure | planted | reading | error | allowed | verdict |\n|---|---|---|---|---|---|";
    }

    static String line(Outcome o) {
        CalibrationRows.Row r = o.row();
        double error = o.reading() - r.planted();
        String err = Double.isNaN(error) ? "n/a" : r.relative() && r.planted() != 0
                ? String.format(Locale.ROOT, "%+.1f %%", 100 * error / r.planted()) : num(error) + " " + r.unit();
        String allowed = r.relative() ? String.format(Locale.ROOT, "± %.0f %%", 100 * r.tolerance())
                + (r.floor() > 0 ? " or " + java.math.BigDecimal.valueOf(r.floor()).stripTrailingZeros().toPlainString()
                + " " + r.unit() : "") : "± " + num(r.tolerance()) + " "
                + r.unit();
        return "| " + r.figure() + " | " + exact(r.planted()) + " " + r.unit() + " | "
                + (Double.isNaN(o.reading()) ? "no reading" : num(o.reading()) + " " + r.unit()) + " | " + err + " | "
                + allowed + " | " + (o.holds() ? "holds" : "FAILS") + " |";
    }

    /** A reading: three significant digits (four under 1), its trailing zeros kept, since they say its precision. */
    static String num(double v) {
        double a = Math.abs(v);
        return a == 0 ? "0" : a >= 100 || v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v) : a >= 1
                ? String.format(Locale.ROOT, "%.3g", v) : String.format(Locale.ROOT, "%.4g", v);
    }

    /** A planted value, which is exact: as {@link #num}, without trailing zeros (0.5 %, not 0.5000 %). */
    static String exact(double v) {
        return new java.math.BigDecimal(num(v)).stripTrailingZeros().toPlainString();
    }
}

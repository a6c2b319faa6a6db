package dev.inferbench.calibration;

import com.fasterxml.jackson.databind.JsonNode;
import dev.inferbench.BenchException;
import dev.inferbench.Json;
import dev.inferbench.plant.BusyNeighbour;
import dev.inferbench.results.Headline;
import dev.inferbench.results.RunLayout;
import dev.inferbench.results.MachineState;
import dev.inferbench.results.jmh.MeasuredCell;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The headline's rule against a planted disturbance: a 2 ms stub call measured in 3 forks, fork 2 beside a busy
 * neighbour ({@link BusyNeighbour}, another process keeping a core busy), a spare fork allowed. Every planted fork
 * must be caught by the machine record, the untouched forks (the spare among them) marked at most at the rate the
 * docs state, and the headline, from the quiet forks, must read the planted call time.
 */
final class DisturbedRows {
    /** The share of the planted forks the rule marks as disturbed. */
    static final String CAUGHT = "disturbed.caught";
    /** The share of the untouched forks the rule marks as disturbed. */
    static final String UNTOUCHED = "disturbed.untouched";
    /** The cell's mean time per call from its quiet forks, as the summary reads it (ms). */
    static final String HEADLINE = "headline.time";
    /** The false-alarm rate docs/statistics.md states for untouched forks. */
    static final double FALSE_ALARM = 0.05;
    /** The share of the forks the periodic neighbour struck that the rule marks as disturbed. */
    static final String STRUCK = "disturbed.struck";
    /** The share of the forks the periodic neighbour never touched that the rule marks as disturbed. */
    static final String CLEAR = "disturbed.clear";
    /** The headline beside the periodic neighbour over the headline of the same cell run quiet. */
    static final String QUIET_RATIO = "headline.quiet.ratio";
    static final String PLANTED = "2";
    private static final String BUSY = "-D" + BusyNeighbour.PROPERTY + "=";

    private DisturbedRows() {
    }

    static void rows(List<CalibrationRows.Row> rows) {
        CalibrationRows.Run run = new CalibrationRows.Run("busy-neighbour", List.of("InferenceBenchmark", "-p",
                "engine=stub", "-p", "model=mlp-tiny", "-p", "batchSize=1", "-p", "threads=1", "-f", "3", "-wi", "1",
                "-w", "500ms", "-i", "2", "-r", "1s", "-jvmArgsAppend", CalibrationRows.STUB + "call=2ms " + BUSY
                        + PLANTED, "--rerun-disturbed", "1"));
        rows.add(new CalibrationRows.Row("planted busy neighbour: share of its forks marked disturbed", 1, "", 0,
                false, true, run, CAUGHT));
        rows.add(new CalibrationRows.Row("untouched forks marked disturbed (at most the stated rate)", 0, "",
                FALSE_ALARM, false, true, run, UNTOUCHED));
        rows.add(new CalibrationRows.Row("headline ms per call from the quiet forks, 2 ms call, a neighbour in fork 2",
                2, "ms", 0.02, true, true, run, HEADLINE));
    }

    /**
     * The second set: a real model on ONNX Runtime (resnet-tiny, ms calls) with a neighbour outside the run's JVMs
     * that keeps one core busy 6 s in every 30 s, as a periodic job on a shared machine does, against the same cell
     * run quiet just before. The forks it struck (busy for at least half the fork's time, read from the neighbour's
     * own record of its busy stretches and the forks' start and end) must be marked, the forks it never touched
     * marked at most at the stated rate, and the headline must read the quiet run's within 2 %.
     */
    static void periodicRows(List<CalibrationRows.Row> rows) {
        List<String> args = List.of("InferenceBenchmark", "-p", "model=resnet-tiny", "-p", "batchSize=1", "-f", "10",
                "-wi", "1", "-w", "1s", "-i", "2", "-r", "1s", "--rerun-disturbed", "60%");
        CalibrationRows.Run quiet = new CalibrationRows.Run("periodic-quiet", args);
        CalibrationRows.Run loud = new CalibrationRows.Run("periodic-neighbour", args, new CalibrationRows.Neighbour(
                Duration.ofSeconds(6), Duration.ofSeconds(30), Duration.ofSeconds(8)));
        rows.add(new CalibrationRows.Row("periodic neighbour (6 s in 30 s), resnet-tiny: share of the forks it struck"
                + " marked disturbed", 1, "", 0, false, false, loud, STRUCK, quiet));
        rows.add(new CalibrationRows.Row("periodic neighbour, resnet-tiny: forks it never touched marked disturbed"
                + " (at most the stated rate)", 0, "", FALSE_ALARM, false, false, loud, CLEAR, quiet));
        rows.add(new CalibrationRows.Row("periodic neighbour, resnet-tiny: headline ms per call against the quiet run's",
                1, "x", 0.02, true, false, loud, QUIET_RATIO, quiet));
    }

    static boolean reads(String metric) {
        return List.of(CAUGHT, UNTOUCHED, HEADLINE, STRUCK, CLEAR, QUIET_RATIO).contains(metric);
    }

    /** Where the periodic neighbour of the run in {@code dir} writes its busy stretches: beside the run's folder. */
    static Path windows(Path dir) {
        return dir.resolveSibling(dir.getFileName() + "-busy.txt");
    }

    /**
     * The row's figure from the run in {@code dir}: its one cell, every landed fork; NaN when there is none.
     * {@code quiet}: the cells of the row's baseline run, or null.
     */
    static double read(Path dir, List<MeasuredCell> cells, List<MeasuredCell> quiet, CalibrationRows.Row row)
            throws BenchException {
        if (cells.size() != 1) {
            return Double.NaN;
        }
        if (row.metric().equals(HEADLINE)) {
            return CalibrationRows.read(Headline.ofFolder(dir, cells).cells(), CalibrationRows.TIME);
        }
        if (row.metric().equals(QUIET_RATIO)) {
            Path quietDir = dir.resolveSibling(row.baseline().name());
            return quiet == null || quiet.size() != 1 ? Double.NaN
                    : CalibrationRows.read(Headline.ofFolder(dir, cells).cells(), CalibrationRows.TIME)
                    / CalibrationRows.read(Headline.ofFolder(quietDir, quiet).cells(), CalibrationRows.TIME);
        }
        Optional<MachineState> machine = MachineState.of(cells);
        if (row.metric().equals(STRUCK) || row.metric().equals(CLEAR)) {
            return machine.isEmpty() ? Double.NaN : struckMarked(dir, cells.get(0), machine.get(),
                    row.metric().equals(STRUCK));
        }
        Set<Integer> planted = planted(row.run());
        if (machine.isEmpty() || planted.isEmpty()) {
            return Double.NaN;
        }
        boolean[] marked = MachineState.disturbedForks(cells.get(0), machine.get().canaryMedian(),
                machine.get().othersMedian());
        boolean wantPlanted = row.metric().equals(CAUGHT);
        int of = 0;
        int hit = 0;
        for (int f = 0; f < marked.length; f++) {
            if (planted.contains(f + 1) == wantPlanted) {
                of++;
                hit += marked[f] ? 1 : 0;
            }
        }
        return of == 0 ? Double.NaN : hit / (double) of;
    }

    /**
     * Of the forks the periodic neighbour struck ({@code struck}; busy for at least half of the fork's time) or never
     * touched (no busy stretch within a second of it), the share the machine rule marks; NaN when there is none.
     * Forks it touched for less than half their time are neither.
     */
    private static double struckMarked(Path dir, MeasuredCell cell, MachineState machine, boolean struck)
            throws BenchException {
        List<long[]> busy = BusyNeighbour.windows(windows(dir));
        boolean[] marked = MachineState.disturbedForks(cell, machine.canaryMedian(), machine.othersMedian());
        int of = 0;
        int hit = 0;
        for (int f = 0; f < marked.length; f++) {
            long[] span = forkSpan(dir, f + 1);
            if (span == null) {
                return Double.NaN;
            }
            long overlap = 0;
            long near = 0;
            for (long[] w : busy) {
                overlap += Math.max(0, Math.min(span[1], w[1]) - Math.max(span[0], w[0]));
                near += Math.max(0, Math.min(span[1] + 1000, w[1]) - Math.max(span[0] - 1000, w[0]));
            }
            boolean isStruck = overlap * 2 >= span[1] - span[0];
            if (struck ? isStruck : near == 0) {
                of++;
                hit += marked[f] ? 1 : 0;
            }
        }
        return of == 0 ? Double.NaN : hit / (double) of;
    }

    /** Fork {@code n}'s start and end in epoch milliseconds, from its time record; null when it has none. */
    private static long[] forkSpan(Path dir, int n) throws BenchException {
        try (Stream<Path> s = Files.walk(dir.resolve(RunLayout.FORKS), 2)) {
            Path time = s.filter(p -> p.getFileName().toString().equals("fork-" + n + ".time.json")).findFirst()
                    .orElse(null);
            if (time == null) {
                return null;
            }
            JsonNode t = Json.mapper().readTree(time.toFile());
            return new long[]{Instant.parse(t.path("start").asText()).toEpochMilli(),
                    Instant.parse(t.path("end").asText()).toEpochMilli()};
        } catch (IOException | java.time.format.DateTimeParseException e) {
            throw new BenchException("cannot read fork " + n + "'s times under " + dir + " (" + e.getMessage() + ")", e);
        }
    }

    /** The fork numbers the run's arguments plant a neighbour in. */
    static Set<Integer> planted(CalibrationRows.Run run) throws BenchException {
        for (String a : run.args()) {
            for (String token : a.split("\\s+")) {
                if (token.startsWith(BUSY)) {
                    return BusyNeighbour.parse(token.substring(BUSY.length()));
                }
            }
        }
        return Set.of();
    }
}

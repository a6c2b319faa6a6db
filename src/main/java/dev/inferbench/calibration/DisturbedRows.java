package dev.inferbench.calibration;

import com.fasterxml.jackson.databind.JsonNode;
import dev.inferbench.BenchException;
import dev.inferbench.Json;
import dev.inferbench.plant.BusyNeighbour;
import dev.inferbench.results.Headline;
import dev.inferbench.results.RunLayout;
import dev.inferbench.results.MachineState;
import dev.inferbench.results.jmh.MeasuredCell;
import dev.inferbench.stats.BinomialRate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
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
    /**
     * The untouched forks the rule marks as disturbed: the lower one-sided 95 % bound of their rate ({@link
     * #falseAlarms}).
     */
    static final String UNTOUCHED = "disturbed.untouched";
    /** The cell's mean time per call from its quiet forks, as the summary reads it (ms). */
    static final String HEADLINE = "headline.time";
    /** The false-alarm rate docs/statistics.md states for untouched forks. */
    static final double FALSE_ALARM = 0.05;
    /** The confidence of the one-sided bound a false-alarm row reads. */
    private static final double FALSE_ALARM_CONFIDENCE = 0.95;
    /** The share of the forks the periodic neighbour struck that the rule marks as disturbed. */
    static final String STRUCK = "disturbed.struck";
    /** The forks the periodic neighbour never touched that the rule marks as disturbed, as {@link #UNTOUCHED}. */
    static final String CLEAR = "disturbed.clear";
    /**
     * The headline beside the periodic neighbour over the mean time per call of the forks it never touched, in the
     * same run: the quiet forks it is read against ran between the loud ones, so the host's drift between two runs is
     * not in the figure.
     */
    static final String CLEAR_RATIO = "headline.clear.ratio";
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
        rows.add(new CalibrationRows.Row("untouched forks marked disturbed: the rate's lower 95 % bound (at most the"
                + " stated rate)", 0, "",
                FALSE_ALARM, false, true, run, UNTOUCHED));
        rows.add(new CalibrationRows.Row("headline ms per call from the quiet forks, 2 ms call, a neighbour in fork 2",
                2, "ms", 0.02, true, true, run, HEADLINE));
    }

    /**
     * The second set: a real model on ONNX Runtime (resnet-tiny, ms calls) with a neighbour outside the run's JVMs
     * that keeps one core busy 6 s in every 30 s, as a periodic job on a shared machine does, against the same cell
     * run quiet just before. The forks it struck (busy for at least half the fork's time, read from the neighbour's
     * own record of its busy stretches and the forks' start and end) must be marked, the forks it never touched
     * marked at most at the stated rate, and the headline must read the untouched forks' mean within 2 %.
     */
    static void periodicRows(List<CalibrationRows.Row> rows) {
        List<String> args = List.of("InferenceBenchmark", "-p", "model=resnet-tiny", "-p", "batchSize=1", "-f", "10",
                "-wi", "1", "-w", "1s", "-i", "2", "-r", "1s", "--rerun-disturbed", "60%");
        CalibrationRows.Run loud = new CalibrationRows.Run("periodic-neighbour", args, new CalibrationRows.Neighbour(
                Duration.ofSeconds(6), Duration.ofSeconds(30), Duration.ofSeconds(8)));
        rows.add(new CalibrationRows.Row("periodic neighbour (6 s in 30 s), resnet-tiny: share of the forks it struck"
                + " marked disturbed", 1, "", 0, false, false, loud, STRUCK));
        rows.add(new CalibrationRows.Row("periodic neighbour, resnet-tiny: forks it never touched marked disturbed,"
                + " the rate's lower 95 % bound (at most the stated rate)", 0, "", FALSE_ALARM, false, false, loud,
                CLEAR));
        rows.add(new CalibrationRows.Row("periodic neighbour, resnet-tiny: headline ms per call against the forks it"
                + " never touched", 1, "x", 0.02, true, false, loud, CLEAR_RATIO));
    }

    static boolean reads(String metric) {
        return List.of(CAUGHT, UNTOUCHED, HEADLINE, STRUCK, CLEAR, CLEAR_RATIO).contains(metric);
    }

    /** Where the periodic neighbour of the run in {@code dir} writes its busy stretches: beside the run's folder. */
    static Path windows(Path dir) {
        return dir.resolveSibling(dir.getFileName() + "-busy.txt");
    }

    /** The row's figure from the run in {@code dir}: its one cell, every landed fork; NaN when there is none. */
    static double read(Path dir, List<MeasuredCell> cells, CalibrationRows.Row row) throws BenchException {
        if (cells.size() != 1) {
            return Double.NaN;
        }
        if (row.metric().equals(HEADLINE)) {
            return CalibrationRows.read(Headline.ofFolder(dir, cells).cells(), CalibrationRows.TIME);
        }
        if (row.metric().equals(CLEAR_RATIO)) {
            return CalibrationRows.read(Headline.ofFolder(dir, cells).cells(), CalibrationRows.TIME)
                    / clearMean(dir, cells.get(0));
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
        return of == 0 ? Double.NaN : wantPlanted ? hit / (double) of : falseAlarms(hit, of);
    }

    /**
     * What a false-alarm row reads of {@code hits} marked among {@code of} untouched forks: the lower one-sided 95 %
     * bound of the rate (exact). A run of ten forks cannot read a rate to 5 %: one false alarm in 8 is a share of
     * 12.5 % and, at a true rate of 5 %, happens a third of the time. The bound is above the stated rate only when
     * so many forks were marked that the rate is above it at that confidence (3 of 8 and more), and the row fails.
     */
    static double falseAlarms(int hits, int of) {
        return BinomialRate.exact(hits, of, 1 - 2 * (1 - FALSE_ALARM_CONFIDENCE)).lower();
    }

    /** What the periodic neighbour did to a fork: busy for at least half its time, never within a second, or less. */
    private enum Touch { STRUCK, CLEAR, PARTLY }

    /**
     * Of the forks the periodic neighbour struck ({@code struck}) or never touched, the share the machine rule marks
     * (of the untouched ones, its {@link #falseAlarms} bound); NaN when there is none. Forks it touched for less than
     * half their time are neither.
     */
    private static double struckMarked(Path dir, MeasuredCell cell, MachineState machine, boolean struck)
            throws BenchException {
        Touch[] touch = touches(dir, cell);
        if (touch == null) {
            return Double.NaN;
        }
        boolean[] marked = MachineState.disturbedForks(cell, machine.canaryMedian(), machine.othersMedian());
        int of = 0;
        int hit = 0;
        for (int f = 0; f < marked.length; f++) {
            if (touch[f] == (struck ? Touch.STRUCK : Touch.CLEAR)) {
                of++;
                hit += marked[f] ? 1 : 0;
            }
        }
        return of == 0 ? Double.NaN : struck ? hit / (double) of : falseAlarms(hit, of);
    }

    /** The mean time per call (ms) of the forks the periodic neighbour never touched; NaN when there is none. */
    private static double clearMean(Path dir, MeasuredCell cell) throws BenchException {
        Touch[] touch = touches(dir, cell);
        if (touch == null || Arrays.stream(touch).noneMatch(t -> t == Touch.CLEAR)) {
            return Double.NaN;
        }
        boolean[] clear = new boolean[touch.length];
        for (int f = 0; f < clear.length; f++) {
            clear[f] = touch[f] == Touch.CLEAR;
        }
        return CalibrationRows.read(List.of(cell.onlyForks(clear)), CalibrationRows.TIME);
    }

    /**
     * Per fork of {@code cell}, what the periodic neighbour did to it, from its busy stretches and the fork's start
     * and end; null when a fork has no time record.
     */
    private static Touch[] touches(Path dir, MeasuredCell cell) throws BenchException {
        List<long[]> busy = BusyNeighbour.windows(windows(dir));
        Touch[] out = new Touch[cell.forks()];
        for (int f = 0; f < out.length; f++) {
            long[] span = forkSpan(dir, f + 1);
            if (span == null) {
                return null;
            }
            long overlap = 0;
            long near = 0;
            for (long[] w : busy) {
                overlap += Math.max(0, Math.min(span[1], w[1]) - Math.max(span[0], w[0]));
                near += Math.max(0, Math.min(span[1] + 1000, w[1]) - Math.max(span[0] - 1000, w[0]));
            }
            out[f] = overlap * 2 >= span[1] - span[0] ? Touch.STRUCK : near == 0 ? Touch.CLEAR : Touch.PARTLY;
        }
        return out;
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

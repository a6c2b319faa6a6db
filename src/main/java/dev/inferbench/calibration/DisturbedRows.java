package dev.inferbench.calibration;

import dev.inferbench.BenchException;
import dev.inferbench.plant.BusyNeighbour;
import dev.inferbench.results.Headline;
import dev.inferbench.results.MachineState;
import dev.inferbench.results.jmh.MeasuredCell;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

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

    static boolean reads(String metric) {
        return metric.equals(CAUGHT) || metric.equals(UNTOUCHED) || metric.equals(HEADLINE);
    }

    /** The row's figure from the run in {@code dir}: its one cell, every landed fork; NaN when there is none. */
    static double read(Path dir, List<MeasuredCell> cells, CalibrationRows.Row row) throws BenchException {
        if (cells.size() != 1) {
            return Double.NaN;
        }
        if (row.metric().equals(HEADLINE)) {
            return CalibrationRows.read(Headline.ofFolder(dir, cells).cells(), CalibrationRows.TIME);
        }
        Optional<MachineState> machine = MachineState.of(cells);
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

package dev.inferbench.calibration;

import dev.inferbench.metrics.MachineProfiler;
import dev.inferbench.results.jmh.JmhMetric;
import dev.inferbench.results.jmh.MeasuredCell;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/** The periodic neighbour's rows read from its busy stretches and the forks' own times. */
class PeriodicNeighbourRowsTest {
    @TempDir
    Path out;

    private static JmhMetric perFork(String unit, double... forkValues) {
        List<List<Double>> raw = java.util.Arrays.stream(forkValues).mapToObj(v -> List.of(v, v)).toList();
        return new JmhMetric(0, 0, new double[]{0, 0}, new TreeMap<>(), unit, raw, List.of());
    }

    private static MeasuredCell cell(double[] canary, double[] others) {
        return new MeasuredCell("dev.inferbench.bench.InferenceBenchmark.infer", "sample", 1, canary.length,
                Map.of("model", "resnet-tiny"), perFork("ms/op", canary),
                Map.of(MachineProfiler.CANARY, perFork("ms", canary), MachineProfiler.OTHERS, perFork("cores", others)),
                Map.of());
    }

    private static CalibrationRows.Row row(String metric) {
        List<CalibrationRows.Row> rows = new java.util.ArrayList<>();
        DisturbedRows.periodicRows(rows);
        return rows.stream().filter(r -> r.metric().equals(metric)).findFirst().orElseThrow();
    }

    /** Forks of 5 s back to back from t0; busy stretches at [12 s, 18 s) and [42 s, 44 s) after t0. */
    private Path run() throws Exception {
        Path dir = out.resolve("periodic-neighbour");
        Path forks = Files.createDirectories(dir.resolve("forks").resolve("cell"));
        long t0 = 1_790_000_000_000L;
        for (int f = 1; f <= 10; f++) {
            Files.writeString(forks.resolve("fork-" + f + ".time.json"), "{\"start\":\""
                    + Instant.ofEpochMilli(t0 + (f - 1) * 5000L) + "\",\"end\":\"" + Instant.ofEpochMilli(t0 + f * 5000L)
                    + "\",\"seconds\":5.0}");
        }
        Files.writeString(DisturbedRows.windows(dir), (t0 + 12_000) + " " + (t0 + 18_000) + "\n" + (t0 + 42_000) + " "
                + (t0 + 44_000) + "\n");
        return dir;
    }

    @Test
    void theForksItStruckAndTheForksItNeverTouchedAreCountedApart() throws Exception {
        Path dir = run();
        // struck: fork 3 (10-15 s: 3 s of 5) and fork 4 (15-20 s: 3 s); fork 9 (40-45 s: 2 s of 5) is neither;
        // never within a second of a stretch: forks 1, 2, 5, 6, 7, 8 and 10 (a second after 44 s)
        double[] canary = {1.0, 1.0, 1.6, 1.0, 1.0, 1.0, 1.5, 1.0, 1.0, 1.0};
        double[] others = {0.0, 0.0, 1.0, 0.1, 0.0, 0.0, 0.0, 0.0, 0.4, 0.0};
        List<MeasuredCell> cells = List.of(cell(canary, others));
        // fork 3 is marked (canary and others), fork 4 is not: half of the struck forks
        assertThat(DisturbedRows.read(dir, cells, row(DisturbedRows.STRUCK))).isEqualTo(0.5);
        // of those seven, fork 7's canary marks it (fork 9, beside 0.4 cores, is not one of them)
        // one false alarm in seven is read as the rate's lower bound, which one in seven does not put above 5 %
        assertThat(DisturbedRows.read(dir, cells, row(DisturbedRows.CLEAR)))
                .isEqualTo(DisturbedRows.falseAlarms(1, 7)).isBetween(0.005, 0.01);
    }

    @Test
    void aFalseAlarmRowFailsOnlyWhenTheCountPutsTheRateAboveTheStatedOne() {
        CalibrationRows.Row clear = row(DisturbedRows.CLEAR);
        assertThat(DisturbedRows.falseAlarms(0, 8)).isZero();
        assertThat(clear.holds(DisturbedRows.falseAlarms(1, 8))).isTrue();
        assertThat(clear.holds(DisturbedRows.falseAlarms(2, 8))).isTrue(); // lower bound 4.6 %
        assertThat(clear.holds(DisturbedRows.falseAlarms(3, 8))).isFalse(); // 11.1 %
        assertThat(clear.holds(DisturbedRows.falseAlarms(3, 60))).isTrue();
        assertThat(clear.holds(DisturbedRows.falseAlarms(8, 60))).isFalse();
    }

    @Test
    void aRunWithoutForkTimesReadsNothing() throws Exception {
        Path dir = run();
        Files.delete(dir.resolve("forks/cell/fork-2.time.json"));
        List<MeasuredCell> cells = List.of(cell(new double[10], new double[10]));
        assertThat(DisturbedRows.read(dir, cells, row(DisturbedRows.STRUCK))).isNaN();
    }

    @Test
    void theHeadlineIsReadAgainstTheForksItNeverTouchedInTheSameRun() throws Exception {
        Path dir = run();
        // fork means: the untouched forks 1.0 (forks 1, 2, 5, 6, 8, 10) and 1.3 (fork 7, marked by its canary);
        // struck fork 3 (marked) 2.0, struck fork 4 (not marked) 1.6, fork 9 (neither; marked, 0.4 cores) 1.1
        double[] time = {1.0, 1.0, 2.0, 1.6, 1.0, 1.0, 1.3, 1.0, 1.1, 1.0};
        double[] canary = {1.0, 1.0, 1.6, 1.0, 1.0, 1.0, 1.5, 1.0, 1.0, 1.0};
        double[] others = {0.0, 0.0, 1.0, 0.1, 0.0, 0.0, 0.0, 0.0, 0.4, 0.0};
        MeasuredCell cell = new MeasuredCell("dev.inferbench.bench.InferenceBenchmark.infer", "sample", 1, 10,
                Map.of("model", "resnet-tiny"), perFork("ms/op", time), Map.of(MachineProfiler.CANARY,
                perFork("ms", canary), MachineProfiler.OTHERS, perFork("cores", others)), Map.of());
        // the headline keeps the seven unmarked forks, the struck fork 4 among them (mean 7.6 / 7), against the
        // seven untouched ones (7.3 / 7)
        assertThat(DisturbedRows.read(dir, List.of(cell), row(DisturbedRows.CLEAR_RATIO)))
                .isCloseTo(7.6 / 7.3, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void theRowsAreSlowAndShareOneRun() {
        CalibrationRows.Row struck = row(DisturbedRows.STRUCK);
        CalibrationRows.Row ratio = row(DisturbedRows.CLEAR_RATIO);
        assertThat(struck.fast()).isFalse();
        assertThat(struck.run()).isEqualTo(ratio.run()).isEqualTo(row(DisturbedRows.CLEAR).run());
        assertThat(struck.run().neighbour()).isNotNull();
        assertThat(ratio.baseline()).isNull();
        assertThat(ratio.holds(1.015)).isTrue();
        assertThat(ratio.holds(1.03)).isFalse();
    }
}

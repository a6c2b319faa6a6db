package dev.inferbench.results;

import dev.inferbench.metrics.MachineProfiler;
import dev.inferbench.results.jmh.MeasuredCell;
import dev.inferbench.results.jmh.JmhMetric;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

class MachineStateTest {

    private static JmhMetric perFork(String unit, double... forkValues) {
        List<List<Double>> raw = java.util.Arrays.stream(forkValues).mapToObj(v -> List.of(v, v)).toList();
        return new JmhMetric(0, 0, new double[]{0, 0}, new TreeMap<>(), unit, raw, List.of());
    }

    private static MeasuredCell cell(String model, double[] canary, double[] others) {
        return new MeasuredCell("dev.inferbench.bench.InferenceBenchmark.infer", "sample", 1, canary.length,
                Map.of("model", model, "engine", "ort"), perFork("ms/op", canary),
                Map.of(MachineProfiler.CANARY, perFork("ms", canary), MachineProfiler.OTHERS, perFork("cores", others)),
                Map.of());
    }

    @Test
    void aCompetingProcessAndASlowPhaseFlagTheirForksInEveryCell() {
        // fork 3 of both cells ran beside a CPU-bound process; fork 4 of the second in a slow phase
        List<MeasuredCell> run = List.of(cell("a", new double[]{1.0, 1.02, 1.05, 0.99}, new double[]{0.01, 0.02, 0.98, 0.0}),
                cell("b", new double[]{1.01, 0.98, 1.04, 1.4}, new double[]{0.0, 0.03, 1.02, 0.1}));
        MachineState m = MachineState.of(run).orElseThrow();
        assertThat(m.forks()).isEqualTo(8);
        assertThat(m.canaryMedian()).isBetween(1.0, 1.03);
        assertThat(m.disturbed()).containsExactly(
                new MachineState.Disturbed("model=a", 3, "other processes 1.0 cores"),
                new MachineState.Disturbed("model=b", 3, "other processes 1.0 cores"),
                new MachineState.Disturbed("model=b", 4, "canary +38%"));
        // each cell by the params that tell it from the run's others (model; not engine, which all share)
        assertThat(m.line()).contains("3 forks run while the machine was disturbed: model=a:"
                + " fork 3 (other processes 1.0 cores); model=b: fork 3 (other processes 1.0"
                + " cores), fork 4 (canary +38%)");
    }

    @Test
    void aQuietRunFlagsNothingAndOldRunsHaveNoState() {
        MachineState quiet = MachineState.of(List.of(cell("a", new double[]{1.0, 1.05, 0.97}, new double[]{0.02, 0.0, 0.05})))
                .orElseThrow();
        assertThat(quiet.disturbed()).isEmpty();
        assertThat(quiet.line()).endsWith("no fork disturbed");
        MeasuredCell old = new MeasuredCell("b.B.m", "avgt", 1, 1, Map.of(), perFork("ms/op", 1), Map.of(), Map.of());
        assertThat(MachineState.of(List.of(old))).isEmpty();
    }

    /**
     * For pairing, a fork is disturbed by a slow canary or by other processes' CPU above the run's own usual level:
     * bursts beside a quiet run, and bursts beside a duet's partner (about a core all the time), but not the partner.
     */
    @Test
    void aForkIsDisturbedForPairingBySlowCanaryOrByOthersAboveTheRunsUsualLevel() {
        MeasuredCell quietRun = cell("a", new double[]{1.0, 1.02, 1.0, 1.3, 1.01}, new double[]{0.02, 0.3, 0.01, 0.0, 0.2});
        MachineState quiet = MachineState.of(List.of(quietRun)).orElseThrow();
        assertThat(MachineState.disturbedForks(quietRun, quiet.canaryMedian(), quiet.othersMedian()))
                .as("fork 2: others 0.3 above a median of 0.02; fork 4: canary +30 %; fork 5: 0.2, under the bar")
                .containsExactly(false, true, false, true, false);

        MeasuredCell duet = cell("a", new double[]{1.0, 1.0, 1.01, 0.99}, new double[]{1.0, 0.95, 1.4, 1.02});
        MachineState partner = MachineState.of(List.of(duet)).orElseThrow();
        assertThat(MachineState.disturbedForks(duet, partner.canaryMedian(), partner.othersMedian()))
                .as("a partner's steady core is the run's usual level; fork 3's burst above it is not")
                .containsExactly(false, false, true, false);
    }

    /**
     * A burst over one measured iteration of two marks its fork: other processes 0.46 cores in the first and 0.04 in
     * the second (a periodic neighbour that stopped mid-fork) is 0.25 in the mean, under the bar, and 0.46 in the
     * busiest iteration, over it. A quiet fork's busiest iteration stays under it.
     */
    @Test
    void aBurstOverOneIterationMarksItsFork() {
        double[][] others = {{0.02, 0.03}, {0.46, 0.04}, {0.01, 0.05}, {0.03, 0.02}};
        List<List<Double>> raw = java.util.Arrays.stream(others).map(f -> List.of(f[0], f[1])).toList();
        JmhMetric busy = new JmhMetric(0, 0, new double[]{0, 0}, new TreeMap<>(), "cores", raw, List.of());
        double[] canary = {1.0, 1.0, 1.01, 0.99};
        MeasuredCell cell = new MeasuredCell("dev.inferbench.bench.InferenceBenchmark.infer", "sample", 1, 4,
                Map.of("model", "a", "engine", "ort"), perFork("ms/op", canary),
                Map.of(MachineProfiler.CANARY, perFork("ms", canary), MachineProfiler.OTHERS, busy), Map.of());
        MachineState m = MachineState.of(List.of(cell)).orElseThrow();
        assertThat(m.disturbed()).containsExactly(new MachineState.Disturbed("a", 2, "other processes 0.5 cores"));
        assertThat(MachineState.disturbedForks(cell, m.canaryMedian(), m.othersMedian()))
                .containsExactly(false, true, false, false);
    }

    /** The summary's line names exactly the forks a comparison leaves out: one rule, not an absolute level beside it. */
    @Test
    void theSummaryFlagsTheForksThatPairingLeavesOutAndNamesARunThatSharedTheMachine() {
        MeasuredCell loaded = cell("a", new double[]{1.0, 1.0, 1.01, 0.99, 1.0}, new double[]{0.9, 0.95, 1.3, 1.0, 0.6});
        MachineState m = MachineState.of(List.of(loaded)).orElseThrow();
        boolean[] out = MachineState.disturbedForks(loaded, m.canaryMedian(), m.othersMedian());
        assertThat(out).containsExactly(false, false, true, false, false);
        assertThat(m.disturbed()).extracting(MachineState.Disturbed::fork).containsExactly(3);
        assertThat(m.line()).contains("other processes 0.95 cores (median), so the whole run shared the machine")
                // a run of one cell names it by its model
                .contains("1 fork run while the machine was disturbed: a: fork 3 (other processes 1.3 cores)");
        MachineState quiet = MachineState.of(List.of(cell("a", new double[]{1.0, 1.0}, new double[]{0.0, 0.1})))
                .orElseThrow();
        assertThat(quiet.line()).doesNotContain("shared the machine");
    }

    @Test
    void compareSaysWhenTheTwoSidesSawDifferentMachines() {
        MachineState base = new MachineState(4, 1.0, 0.02, 0.0, List.of());
        assertThat(MachineState.difference(base, new MachineState(4, 1.05, 0.02, 0.1, List.of()))).isEmpty();
        assertThat(MachineState.difference(base, new MachineState(4, 1.3, 0.02, 0.0, List.of())))
                .hasValueSatisfying(s -> assertThat(s).contains("+30%"));
        assertThat(MachineState.difference(base, new MachineState(4, 1.0, 0.02, 0.3, List.of()))).isPresent();
        assertThat(MachineState.difference(base, new MachineState(4, 1.0, 0.02, 0.1,
                List.of(new MachineState.Disturbed("c", 1, "x"), new MachineState.Disturbed("c", 2, "x")))))
                .as("half the candidate's forks disturbed").isPresent();
    }
}

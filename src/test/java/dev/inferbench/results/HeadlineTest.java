package dev.inferbench.results;

import dev.inferbench.metrics.MachineProfiler;
import dev.inferbench.results.jmh.JmhMetric;
import dev.inferbench.results.jmh.MeasuredCell;
import dev.inferbench.stats.ForkMeans;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class HeadlineTest {
    /** Two iterations a fork, both at the fork's value. */
    static JmhMetric perFork(String unit, double... forkValues) {
        List<List<Double>> raw = Arrays.stream(forkValues).mapToObj(v -> List.of(v, v)).toList();
        double mean = Arrays.stream(forkValues).average().orElse(Double.NaN);
        return new JmhMetric(mean, 0, new double[]{0, 0}, new TreeMap<>(), unit, raw, List.of());
    }

    static MeasuredCell cell(String model, double[] times, double[] canary, double[] others) {
        return new MeasuredCell("dev.inferbench.bench.InferenceBenchmark.infer", "avgt", 1, times.length,
                Map.of("model", model), perFork("ms/op", times),
                Map.of(MachineProfiler.CANARY, perFork("ms", canary), MachineProfiler.OTHERS, perFork("cores", others)),
                Map.of());
    }

    private static double mean(MeasuredCell c) {
        return ForkMeans.interval(c.callMeans(), ForkMeans.DEFAULT_CONFIDENCE).estimate();
    }

    @Test
    void aForkTheMachineRecordMarksIsLeftOutOfTheFigureAndNamed() {
        MeasuredCell c = cell("mlp-tiny", new double[]{10, 10, 10, 30}, new double[]{1, 1, 1, 1.5},
                new double[]{0, 0, 0, 0});
        Headline h = Headline.of(List.of(c), false, 4);
        assertThat(mean(c)).isEqualTo(15.0);
        assertThat(mean(h.cells().get(0))).isEqualTo(10.0);
        assertThat(h.cells().get(0).forks()).isEqualTo(3);
        assertThat(h.cells().get(0).primary().score()).isEqualTo(10.0);
        assertThat(h.leftOut()).isEqualTo(1);
        assertThat(h.line()).hasValue("headline: 0 forks re-run, 1 left out of the figures (run while the machine was"
                + " disturbed; kept in jmh-result.json): mlp-tiny: 3 of 4 forks quiet");
        assertThat(CellSummary.of(h.cells().get(0)).mean().estimate()).isEqualTo(10.0);
    }

    @Test
    void theRuleReadsTheMachineRecordNeverTheLatency() {
        // fork 4 is slow on a quiet machine: it stays; fork 1 is fast on a disturbed one: it goes
        MeasuredCell c = cell("a", new double[]{5, 10, 10, 30}, new double[]{1.4, 1, 1, 1}, new double[]{0, 0, 0, 0});
        Headline h = Headline.of(List.of(c), false, 4);
        assertThat(mean(h.cells().get(0))).isCloseTo(50.0 / 3, within(1e-12));
    }

    @Test
    void otherProcessesAboveTheirMedianMarkAForkToo() {
        MeasuredCell c = cell("a", new double[]{10, 20, 10, 10}, new double[]{1, 1, 1, 1}, new double[]{0, 0.6, 0, 0});
        Headline h = Headline.of(List.of(c), false, 4);
        assertThat(mean(h.cells().get(0))).isEqualTo(10.0);
    }

    @Test
    void keepDisturbedKeepsEveryForkAndSaysSo() {
        MeasuredCell c = cell("a", new double[]{10, 10, 10, 30}, new double[]{1, 1, 1, 1.5}, new double[]{0, 0, 0, 0});
        Headline h = Headline.of(List.of(c), true, 4);
        assertThat(mean(h.cells().get(0))).isEqualTo(15.0);
        assertThat(h.line()).hasValueSatisfying(l -> assertThat(l).contains("--keep-disturbed"));
    }

    @Test
    void aCellWhoseForksAreAllMarkedKeepsThemAllAndSaysSo() {
        MeasuredCell quiet = cell("a", new double[]{10, 10, 10, 10}, new double[]{1, 1, 1, 1}, new double[]{0, 0, 0, 0});
        MeasuredCell loud = cell("b", new double[]{20, 30, 20, 20}, new double[]{2, 2, 2, 2}, new double[]{0, 0, 0, 0});
        Headline h = Headline.of(List.of(quiet, loud, quiet), false, 4);
        assertThat(h.cells().get(1)).isSameAs(loud);
        assertThat(h.leftOut()).isZero();
        assertThat(h.line()).hasValueSatisfying(l -> assertThat(l).contains("model=b: all 4 forks disturbed, all kept"));
    }

    @Test
    void aQuietRunIsUnchangedAndSaysNothing() {
        MeasuredCell c = cell("a", new double[]{10, 11, 12, 13}, new double[]{1, 1.02, 0.99, 1}, new double[]{0, 0, 0, 0});
        Headline h = Headline.of(List.of(c), false, 4);
        assertThat(h.cells().get(0)).isSameAs(c);
        assertThat(h.line()).isEmpty();
    }

    @Test
    void sparesAreCountedAsTheForksPastThePlan() {
        MeasuredCell c = cell("a", new double[]{10, 10, 10, 30, 10}, new double[]{1, 1, 1, 1.5, 1},
                new double[]{0, 0, 0, 0, 0});
        Headline h = Headline.of(List.of(c), false, 4);
        assertThat(h.spares()).isEqualTo(1);
        assertThat(h.line()).hasValueSatisfying(l -> assertThat(l).startsWith("headline: 1 fork re-run, 1 left out")
                .endsWith("a: 4 of 5 forks quiet"));
    }

    @Test
    void aSampleTimeCellsPercentilesAndScoreComeFromTheKeptCallsAlone() {
        // fork 1: 100 calls at 1 ms, fork 2 (disturbed): 100 calls at 9 ms
        List<List<double[]>> hist = List.of(List.of(new double[]{1, 100}), List.of(new double[]{9, 100}));
        TreeMap<Double, Double> jmh = new TreeMap<>(Map.of(50.0, 5.0, 99.0, 9.0));
        JmhMetric primary = new JmhMetric(5, 0, new double[]{0, 0}, jmh, "ms/op", List.of(), hist);
        MeasuredCell c = new MeasuredCell("x.B.infer", "sample", 1, 2, Map.of(), primary,
                Map.of(MachineProfiler.CANARY, perFork("ms", 1, 2), MachineProfiler.OTHERS, perFork("cores", 0, 0)),
                Map.of());
        MeasuredCell q = c.onlyForks(new boolean[]{true, false});
        assertThat(q.primary().score()).isEqualTo(1.0);
        assertThat(q.primary().percentile(50.0)).isEqualTo(1.0);
        assertThat(q.primary().percentile(99.0)).isEqualTo(1.0);
        assertThat(q.secondary().get(MachineProfiler.CANARY).iterationMeans()).hasDimensions(1, 2);
    }

    @Test
    void aFolderKeepsEveryForkWhenItsPlanSaysSo(@TempDir Path dir) throws Exception {
        MeasuredCell c = cell("a", new double[]{10, 10, 10, 30}, new double[]{1, 1, 1, 1.5}, new double[]{0, 0, 0, 0});
        assertThat(Headline.ofFolder(dir, List.of(c)).leftOut()).as("no plan: the default rule").isEqualTo(1);
        Files.writeString(dir.resolve(RunLayout.PLAN), "{\"forks\": 4, \"" + Headline.KEEP_KEY + "\": true}",
                StandardCharsets.UTF_8);
        Headline kept = Headline.ofFolder(dir, List.of(c));
        assertThat(kept.kept()).isTrue();
        assertThat(mean(kept.cells().get(0))).isEqualTo(15.0);
        List<MeasuredCell> none = new ArrayList<>();
        assertThat(Headline.ofFolder(dir.resolve(RunLayout.RESULT), none).cells()).isEmpty();
    }
}

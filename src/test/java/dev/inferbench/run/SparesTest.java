package dev.inferbench.run;

import dev.inferbench.BenchException;
import dev.inferbench.cell.Cell;
import dev.inferbench.metrics.MachineProfiler;
import dev.inferbench.results.jmh.JmhMetric;
import dev.inferbench.results.jmh.MeasuredCell;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SparesTest {
    private static final Cell A = new Cell("dev.inferbench.bench.InferenceBenchmark.infer", "avgt",
            Map.of("model", "mlp-tiny"));

    private static JmhMetric perFork(String unit, double... forkValues) {
        List<List<Double>> raw = Arrays.stream(forkValues).mapToObj(v -> List.of(v, v)).toList();
        return new JmhMetric(0, 0, new double[]{0, 0}, new TreeMap<>(), unit, raw, List.of());
    }

    /** A cell whose forks had these canaries; its latencies all alike (the rule must not need them). */
    private static MeasuredCell measured(double... canary) {
        double[] times = new double[canary.length];
        Arrays.fill(times, 10);
        return new MeasuredCell(A.benchmark(), A.mode(), 1, canary.length, A.params(), perFork("ms/op", times),
                Map.of(MachineProfiler.CANARY, perFork("ms", canary), MachineProfiler.OTHERS,
                        perFork("cores", new double[canary.length])), Map.of());
    }

    private static Optional<Spares.Next> next(MeasuredCell m, Spares.Budget budget, Set<Cell> skip) {
        Map<Cell, TreeSet<Integer>> landed = new LinkedHashMap<>();
        landed.put(A, new TreeSet<>(IntStream.rangeClosed(1, m.forks()).boxed().toList()));
        return Spares.next(List.of(A), Map.of(A, m), landed, skip, 4, budget);
    }

    @Test
    void aDisturbedForkIsReplacedByASpareNumberedAfterThePlan() {
        Spares.Next n = next(measured(1, 1.5, 1, 1), Spares.Budget.DEFAULT, Set.of()).orElseThrow();
        assertThat(n.fork()).isEqualTo(5);
        assertThat(n.replaces()).isEqualTo(2);
        assertThat(n.spare()).isEqualTo(1);
        assertThat(n.of()).isEqualTo(1);
        assertThat(n.line("mlp-tiny")).isEqualTo("[inferbench] mlp-tiny: fork 2 ran while the machine was disturbed"
                + " (canary +50%); fork 5 runs in its place (spare 1 of 1)");
    }

    @Test
    void aQuietSpareEndsTheCellAndASpentBudgetToo() {
        assertThat(next(measured(1, 1.5, 1, 1, 1), Spares.Budget.DEFAULT, Set.of())).as("4 quiet forks").isEmpty();
        assertThat(next(measured(1, 1.5, 1, 1, 1.5), Spares.Budget.DEFAULT, Set.of())).as("budget of 1 spent")
                .isEmpty();
        Spares.Next again = next(measured(1, 1.5, 1, 1, 1.5), new Spares.Budget(2, 0), Set.of()).orElseThrow();
        assertThat(again.fork()).isEqualTo(6);
        assertThat(again.replaces()).as("the disturbed spare's place").isEqualTo(5);
        assertThat(again.spare()).isEqualTo(2);
    }

    @Test
    void aQuietRunASkippedCellAndABudgetOfNoneRunNoSpare() {
        assertThat(next(measured(1, 1.1, 0.95, 1), Spares.Budget.DEFAULT, Set.of())).isEmpty();
        assertThat(next(measured(1, 1.5, 1, 1), Spares.Budget.DEFAULT, Set.of(A))).isEmpty();
        assertThat(next(measured(1, 1.5, 1, 1), Spares.Budget.NONE, Set.of())).isEmpty();
        assertThat(next(measured(1, 1.5, 1), Spares.Budget.DEFAULT, Set.of())).as("planned forks not all in")
                .isEmpty();
    }

    @Test
    void theBudgetIsForksOrAShareOfThePlanRoundedUp() throws BenchException {
        assertThat(Spares.Budget.DEFAULT.of(4)).isEqualTo(1);
        assertThat(Spares.Budget.DEFAULT.of(5)).isEqualTo(2);
        assertThat(Spares.Budget.DEFAULT.of(8)).isEqualTo(2);
        assertThat(Spares.Budget.DEFAULT.of(16)).isEqualTo(4);
        assertThat(Spares.Budget.parse("3", "--rerun-disturbed").of(16)).isEqualTo(3);
        assertThat(Spares.Budget.parse("50%", "--rerun-disturbed").of(5)).isEqualTo(3);
        assertThat(Spares.Budget.parse("0", "--rerun-disturbed").of(5)).isZero();
        assertThatThrownBy(() -> Spares.Budget.parse("-1", "--rerun-disturbed")).isInstanceOf(BenchException.class)
                .hasMessageContaining("--rerun-disturbed");
        assertThatThrownBy(() -> Spares.Budget.parse("lots", "--rerun-disturbed")).isInstanceOf(BenchException.class)
                .hasMessageContaining("e.g. --rerun-disturbed 2 or --rerun-disturbed 25%");
    }
}

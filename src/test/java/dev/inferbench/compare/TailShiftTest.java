package dev.inferbench.compare;

import dev.inferbench.stats.Verdict;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A tail's shares compared fork by fork: over the pairs where the two sides took turns, so that what the machine did
 * to both forks of a pair cancels, else over the two sides apart; each at the confidence of the cell's family.
 */
class TailShiftTest {
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

    /** Per fork a GC share that swings with the pair (the machine) and moves by {@code shift} points on HEAD. */
    private static CellResults cell(double shift, boolean head, boolean stamped) {
        double[] swing = {10, 40, 20, 50, 30};
        Map<String, MetricSeries> m = new LinkedHashMap<>();
        double[][] time = new double[swing.length][];
        double[][] p99 = new double[swing.length][];
        double[][] gc = new double[swing.length][];
        double[][] unexplained = new double[swing.length][];
        List<ForkStamp> stamps = new ArrayList<>();
        for (int i = 0; i < swing.length; i++) {
            time[i] = new double[] {1.0};
            p99[i] = new double[] {head ? 44 : 31};
            gc[i] = new double[] {swing[i] + shift};
            unexplained[i] = new double[] {100 - swing[i] - shift};
            // A then B in each pair, ten seconds a fork
            Instant start = T0.plusSeconds(20L * i + (head ? 10 : 0));
            stamps.add(new ForkStamp(i + 1, start, start.plusSeconds(9)));
        }
        m.put("time", MetricSeries.mean("time", "ms/op", time));
        m.put("tail.p99", MetricSeries.mean("tail.p99", "ms", p99));
        m.put("tail.gc", MetricSeries.mean("tail.gc", "%", gc));
        m.put("tail.unexplained", MetricSeries.mean("tail.unexplained", "%", unexplained));
        return new CellResults(new CellKey("b.InferenceBenchmark.infer", Map.of("batchSize", "1")), "sample", m,
                stamped ? stamps : List.of());
    }

    private static TailShift shift(boolean stamped) throws Exception {
        List<CellResults> base = List.of(cell(0, false, stamped));
        List<CellResults> head = List.of(cell(8, true, stamped));
        Comparer.Report report = Comparer.compare(base, head, 0.03, Verdict.CONFIDENCE);
        List<TailShift> shifts = TailShift.of(base, head, report);
        assertThat(shifts).hasSize(1);
        return shifts.get(0);
    }

    @Test
    void pairedTheMachinesSwingCancelsAndTheShiftIsSeen() throws Exception {
        TailShift t = shift(true);
        assertThat(t.paired()).isTrue();
        assertThat(t.baseP99()).isEqualTo(31.0);
        assertThat(t.headP99()).isEqualTo(44.0);
        TailShift.Share gc = t.shares().stream().filter(s -> s.cause().equals("gc")).findFirst().orElseThrow();
        // every pair moved by exactly 8 points: no spread left
        assertThat(gc.change().estimate()).isCloseTo(8, within(1e-9));
        assertThat(gc.change().halfWidth()).isCloseTo(0, within(1e-9));
        assertThat(gc.change().confidence()).as("95 % over the cell's two shares").isCloseTo(0.975, within(1e-12));
        assertThat(t.moved()).extracting(TailShift.Share::cause).containsExactly("gc", "unexplained");
    }

    @Test
    void apartTheSameShiftIsNoise() throws Exception {
        TailShift t = shift(false);
        assertThat(t.paired()).isFalse();
        TailShift.Share gc = t.shares().get(0);
        assertThat(gc.change().estimate()).isCloseTo(8, within(1e-9));
        assertThat(gc.change().lower()).isNegative();
        assertThat(t.moved()).isEmpty();
        assertThat(t.differs()).isTrue();
        assertThat(t.told()).isTrue();
    }
}

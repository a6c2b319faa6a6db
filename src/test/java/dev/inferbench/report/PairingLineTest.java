package dev.inferbench.report;

import dev.inferbench.BenchException;
import dev.inferbench.compare.CellKey;
import dev.inferbench.compare.CellResults;
import dev.inferbench.compare.Comparer;
import dev.inferbench.compare.ForkStamp;
import dev.inferbench.compare.MetricSeries;
import dev.inferbench.stats.Verdict;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Forks that took turns but lost their pairs, to the gap rule (the second fork of a pair waited, as when another job
 * measures on the machine) or to a disturbed machine: the line under the table says how many, why and what to do,
 * instead of "the runs' forks were not measured side by side".
 */
class PairingLineTest {
    private static final Instant T0 = Instant.parse("2026-11-25T10:00:00Z");

    /**
     * {@code n} pairs of 5 s forks, the candidate's right after the baseline's, except the pairs in {@code gapped},
     * whose candidate fork waited 8 s, and those in {@code disturbed}, whose candidate fork ran disturbed.
     */
    private static List<CellResults> sides(int n, Set<Integer> gapped, Set<Integer> disturbed) {
        List<ForkStamp> base = new ArrayList<>();
        List<ForkStamp> head = new ArrayList<>();
        double[][] forks = new double[n][];
        double[][] headForks = new double[n][];
        for (int k = 0; k < n; k++) {
            Instant start = T0.plusSeconds(30L * k);
            base.add(new ForkStamp(k, start, start.plusSeconds(5)));
            Instant next = start.plusSeconds(gapped.contains(k) ? 13 : 5);
            head.add(new ForkStamp(k, next, next.plusSeconds(5), disturbed.contains(k)));
            forks[k] = new double[]{20 * (1 + 0.02 * (k % 3))};
            headForks[k] = new double[]{20.2 * (1 + 0.02 * (k % 3))};
        }
        CellKey key = new CellKey("b.InferenceBenchmark.infer", Map.of("batchSize", "1"));
        return List.of(new CellResults(key, "avgt", Map.of("time", MetricSeries.mean("time", "ms/op", forks)), base),
                new CellResults(key, "avgt", Map.of("time", MetricSeries.mean("time", "ms/op", headForks)), head));
    }

    private static String line(List<CellResults> sides) throws BenchException {
        Comparer.Report r = Comparer.compare(List.of(sides.get(0)), List.of(sides.get(1)), 0.03, Verdict.CONFIDENCE);
        return PairingLine.of(r);
    }

    @Test
    void pairsLostToTheGapRuleAndADisturbedMachineAreCountedWithWhatToDo() throws BenchException {
        assertThat(line(sides(4, Set.of(0, 2), Set.of(3)))).isEqualTo("ratio intervals: the two sides as independent"
                + " samples (Welch), though the forks took turns: of 4 pairs, 2 left out by the gap rule (their second"
                + " fork started longer after the first ended than a fork lasts: something ran between them, such as"
                + " another job measuring on the machine) and 1 left out as the machine was disturbed (a canary 20 %"
                + " or more slower than its median, or other processes 0.25 cores or more above theirs), leaving 1,"
                + " fewer than the 3 a paired interval needs; rerun compare-commits while no other job"
                + " measures on the machine, or compare with --keep-disturbed to keep the disturbed pairs");
    }

    @Test
    void aPairedComparisonSaysWhichPairsTheGapRuleLeftOut() throws BenchException {
        assertThat(line(sides(6, Set.of(4), Set.of()))).isEqualTo("ratio intervals: paired, over the per-pair"
                + " ratios of forks run side by side (5 pairs, 1 pair left out by the gap rule: their second fork"
                + " started longer after the first ended than a fork lasts: something ran between them, such as"
                + " another job measuring on the machine; rerun compare-commits while no other job measures"
                + " on the machine)");
    }

    @Test
    void runsMadeApartAreSaidToBeSoWithTheCommandThatPairsThem() throws BenchException {
        List<CellResults> s = sides(3, Set.of(), Set.of());
        List<CellResults> apart = List.of(s.get(0), new CellResults(s.get(1).key(), "avgt", s.get(1).metrics()));
        assertThat(line(apart)).isEqualTo("ratio intervals: the two sides as independent samples (Welch): the runs'"
                + " forks were not measured side by side (compare-commits measures them in pairs)");
    }
}

package dev.inferbench.compare;

import dev.inferbench.BenchException;
import dev.inferbench.cell.Cell;
import dev.inferbench.metrics.MachineProfiler;
import dev.inferbench.results.ForkTime;
import dev.inferbench.results.RunLayout;
import dev.inferbench.results.jmh.JmhMetric;
import dev.inferbench.results.jmh.MeasuredCell;
import dev.inferbench.stats.Verdict;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The disturbance flag of a compare-commits comparison comes from the machine record the script took outside the
 * measured JVMs, not from the canary inside them: a head build whose own canary runs slow in some forks (as
 * {@code -Dinferbench.canarySlowdown} plants) leaves no pair out, while the record's own slow canary or busy
 * neighbour does. Without the record the in-fork flag stands, as before.
 */
class MachineRecordTest {
    private static final int PAIRS = 8;
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final Map<String, String> PARAMS = Map.of("model", "mlp-tiny");
    private static final String BENCH = "dev.inferbench.bench.InferenceBenchmark.infer";

    @TempDir
    Path cmp;
    private Path base;
    private Path head;

    /** Fork n of a side (1-based): base at 10.2 (n-1) s, head 5.1 s later, each 5 s long. */
    private static Instant start(String side, int n) {
        return T0.plusMillis(10_200L * (n - 1) + (side.equals("base") ? 0 : 5_100));
    }

    private static Instant end(String side, int n) {
        return start(side, n).plusSeconds(5);
    }

    @BeforeEach
    void twoInterleavedRuns() throws IOException {
        base = cmp.resolve("base");
        head = cmp.resolve("head");
        for (Path run : List.of(base, head)) {
            RunLayout layout = RunLayout.of(run);
            String id = new Cell(BENCH, "avgt", PARAMS).id();
            Files.createDirectories(layout.cellForks(id));
            for (int n = 1; n <= PAIRS; n++) {
                String side = run.getFileName().toString();
                Files.writeString(layout.forkResult(id, n), "{}");
                Files.write(layout.forkTime(id, n), new ForkTime(start(side, n), end(side, n)).toJson());
            }
        }
    }

    private static JmhMetric perFork(String unit, double... forkValues) {
        List<List<Double>> raw = Arrays.stream(forkValues).mapToObj(v -> List.of(v, v)).toList();
        return new JmhMetric(0, 0, new double[]{0, 0}, new TreeMap<>(), unit, raw, List.of());
    }

    /** A side's one cell: the same time in every fork (plus a little per fork), its in-fork canary as given. */
    private static List<MeasuredCell> cells(double[] canary) {
        double[] time = new double[PAIRS];
        double[] others = new double[PAIRS];
        for (int f = 0; f < PAIRS; f++) {
            time[f] = 1.0 + 0.01 * ((f * 7) % 5);
        }
        return List.of(new MeasuredCell(BENCH, "avgt", 1, PAIRS, PARAMS, perFork("ms/op", time),
                Map.of(MachineProfiler.CANARY, perFork("ms", canary), MachineProfiler.OTHERS, perFork("cores", others)),
                Map.of()));
    }

    /** The head build's in-fork canary, 50 % slow in forks 2, 5 and 7; the base's steady. */
    private ForkPairs pairs() throws BenchException {
        double[] steady = new double[PAIRS];
        Arrays.fill(steady, 1.0);
        double[] planted = steady.clone();
        planted[1] = planted[4] = planted[6] = 1.5;
        Comparer.Report r = Comparer.compare(RunReader.of(cells(steady), base), RunReader.of(cells(planted), head),
                0.03, Verdict.CONFIDENCE, Comparer.PRIMARY_ONLY, false);
        assertThat(r.rows()).first().matches(Comparison::paired, "paired");
        return r.rows().get(0).pairs();
    }

    /** The record as compare-commits writes it: per pair, both forks' windows, others, the canary around the pair. */
    private void record(double[] canaryReadings, Map<String, Double> othersBySideAndPair) throws IOException {
        List<String> lines = new ArrayList<>(List.of(
                "pair\tside\tstart_us\tend_us\tothers_cores\tcanary_before_ms\tcanary_after_ms"));
        for (int p = 1; p <= PAIRS; p++) {
            for (String side : List.of("base", "head")) {
                lines.add(String.join("\t", "" + p, side, "" + micros(start(side, p).minusMillis(40)),
                        "" + micros(end(side, p).plusMillis(30)),
                        String.format(java.util.Locale.ROOT, "%.2f", othersBySideAndPair.getOrDefault(side + p, 0.02)),
                        "" + canaryReadings[p - 1], "" + canaryReadings[p]));
            }
        }
        Files.write(cmp.resolve(MachineRecord.FILE), lines);
    }

    private static long micros(Instant t) {
        return t.getEpochSecond() * 1_000_000 + t.getNano() / 1_000;
    }

    private static double[] quietCanary() {
        double[] c = new double[PAIRS + 1];
        for (int i = 0; i <= PAIRS; i++) {
            c[i] = 60 + (i % 3);
        }
        return c;
    }

    @Test
    void withoutTheRecordTheInForkCanaryOfTheHeadBuildLeavesItsPairsOut() throws Exception {
        ForkPairs p = pairs();
        assertThat(p.disturbed()).as("today's flag follows the head build's slow canary").isEqualTo(3);
        assertThat(p.count()).isEqualTo(PAIRS - 3);
    }

    @Test
    void withTheRecordAHeadBuildThatSlowsOnlyItsOwnCanaryLeavesNoPairOut() throws Exception {
        record(quietCanary(), Map.of());
        ForkPairs p = pairs();
        assertThat(p.disturbed()).isZero();
        assertThat(p.count()).isEqualTo(PAIRS);
    }

    @Test
    void theRecordsOwnSlowCanaryAndBusyNeighbourLeaveTheirPairsOut() throws Exception {
        double[] canary = quietCanary();
        canary[4] = 90; // read after pair 4 and after pair 5: a slow phase that lasted pair 5
        canary[5] = 88;
        record(canary, Map.of("head7", 0.6));
        ForkPairs p = pairs();
        assertThat(p.disturbed()).as("pair 5 by the canary, 7 by other processes").isEqualTo(2);
        assertThat(p.baseline()).containsExactly(0, 1, 2, 3, 5, 7);
    }

    @Test
    void aLoneSlowReadingBetweenPairsFlagsNoPair() throws Exception {
        double[] canary = quietCanary();
        canary[4] = 90;
        record(canary, Map.of());
        assertThat(pairs().disturbed()).isZero();
    }

    @Test
    void aRecordThatIsNotOneIsOneLine() throws Exception {
        Files.writeString(cmp.resolve(MachineRecord.FILE), "pair\tside\tstart_us\tend_us\tothers_cores\t"
                + "canary_before_ms\tcanary_after_ms\n1\tbase\tnoon\t2\t0.1\t60\t61\n");
        assertThatThrownBy(() -> MachineRecord.beside(base)).isInstanceOf(BenchException.class)
                .hasMessageContaining("machine.tsv line 2 is not a fork's line").hasMessageNotContaining("\n");
        Files.writeString(cmp.resolve(MachineRecord.FILE), "something else\n");
        assertThatThrownBy(() -> MachineRecord.beside(base)).hasMessageContaining("is not a machine record");
        assertThat(MachineRecord.beside(cmp.resolve("elsewhere"))).as("no run folder, no record").isEmpty();
    }
}

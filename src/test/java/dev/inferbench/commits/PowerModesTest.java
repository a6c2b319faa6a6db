package dev.inferbench.commits;

import dev.inferbench.compare.CellKey;
import dev.inferbench.compare.Comparison;
import dev.inferbench.compare.ForkPairs;
import dev.inferbench.stats.Direction;
import dev.inferbench.stats.Interval;
import dev.inferbench.stats.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * power-modes: the comparisons it asks for (one per mode per round, the modes' flags, the planted slowdown), and what
 * it makes of one: paired and Welch readings projected to the budget, the same figures as {@code Power.visibleAt}.
 */
class PowerModesTest {
    @TempDir
    Path tmp;

    private static Comparison row(Interval ratio, int pairs) {
        int[] idx = new int[pairs];
        for (int i = 0; i < pairs; i++) {
            idx[i] = i;
        }
        return new Comparison(new CellKey("b", Map.of()), "time", "ms", Direction.LOWER_IS_BETTER, true, ratio, ratio,
                ratio, Verdict.SAME, Verdict.SAME, pairs == 0 ? ForkPairs.NONE : new ForkPairs(idx, idx, 0, 0, 0));
    }

    @Test
    void interleavedReadsWelchAndPairedAtTheBudgetsPairs() {
        Interval paired = new Interval(1.0, 0.98, 1.03, 0.99, 20);
        Interval welch = new Interval(1.0, 0.98, 1.03, 0.99, 20);
        // 20 pairs in 120 s: 6 s a pair, so a 10-minute budget runs 100
        List<PowerModes.Reading> r = PowerModes.readings(PowerModes.Mode.INTERLEAVED, 1, row(paired, 20),
                row(welch, 0), 0, 120, 600);
        assertThat(r).extracting(PowerModes.Reading::label)
                .containsExactly("interleaved, unpaired (Welch)", "interleaved, paired");
        assertThat(r.get(0).pairsThen()).isEqualTo(100);
        // scipy, as in PowerVisibleTest: Welch 38 -> 198 df, paired 19 -> 99
        assertThat(r.get(0).visible().change()).isCloseTo(0.017607555871668623, within(1e-9));
        assertThat(r.get(1).visible().change()).isCloseTo(0.01681236992232238, within(1e-9));
        List<PowerModes.Reading> pin = PowerModes.readings(PowerModes.Mode.PIN, 1, row(paired, 20), row(welch, 0), 0,
                120, 600);
        assertThat(pin).extracting(PowerModes.Reading::label).containsExactly("pin, paired");
        List<String> table = PowerModes.table(List.of(r.get(1), pin.get(0)), 10);
        assertThat(table.get(2)).isEqualTo("| interleaved, paired | 1 | 20 | 6.0 | 0.039 | 1.7 % |");
    }

    @Test
    void aBudgetShorterThanTwoPairsStillProjectsTwo() {
        Interval paired = new Interval(1.0, 0.98, 1.03, 0.99, 4);
        List<PowerModes.Reading> r = PowerModes.readings(PowerModes.Mode.DUET, 1, row(paired, 4), row(paired, 0), 0,
                400, 60);
        assertThat(r.get(0).pairsThen()).isEqualTo(2);
    }

    @Test
    void onePerModePerRoundWithTheModesFlags() throws Exception {
        List<List<String>> calls = new ArrayList<>();
        AtomicLong clock = new AtomicLong();
        CommitComparison fake = (args, out, err) -> {
            calls.add(args);
            clock.addAndGet(90_000_000_000L);
            return 0;
        };
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        new PowerModes(fake, new PrintStream(text, true, StandardCharsets.UTF_8), clock::get).run(
                new PowerModes.Request(PowerLedger.Cell.MLP_TINY, List.of(PowerModes.Mode.INTERLEAVED,
                        PowerModes.Mode.DUET), 2, 3, 10, 5, tmp));
        assertThat(calls).hasSize(4);
        assertThat(calls.get(1)).contains("--duet", "--budget", "3m", "--fail-on-regression", "-jvmArgsAppend -Dinferbench.slowdown=5")
                .startsWith(".", ".", "-p", "model=mlp-tiny");
        assertThat(calls.get(2)).doesNotContain("--duet", "--pin", "--turns");
        assertThat(Files.readAllLines(tmp.resolve("comparisons.tsv"))).hasSize(5)
                .element(4).asString().startsWith("duet\t2\t0\t90\t");
        // the fake left no runs: each comparison says so rather than invent a figure
        assertThat(text.toString(StandardCharsets.UTF_8)).contains("duet round 2: no interval (exit 0)");
    }
}

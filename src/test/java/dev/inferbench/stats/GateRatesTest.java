package dev.inferbench.stats;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Locale;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a FAIL of the gate means, pinned: how often {@code compare --fail-on-regression} fails (a WORSE verdict of the
 * paired 99 % interval, minimum effect 3 %) at true slowdowns of 0, 1, 2, 3 and 5 %, on two machines of
 * {@link NoisyMachine}'s kind: the drifting VM at 20 pairs, and a pinned, quieter one at 40 pairs. docs/statistics.md
 * shows this test's table.
 */
class GateRatesTest {
    static final double[] CHANGES = {0, 0.01, 0.02, 0.03, 0.05};
    static final NoisyMachine PINNED = new NoisyMachine("pinned (2 % own, 5 % drift)", 0.02, 0.05, 0.9, 0, 1, 0, false);
    private static final int TRIALS = 4000;

    static double[] failRates(NoisyMachine m, int pairs, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        double[] out = new double[CHANGES.length];
        for (int s = 0; s < CHANGES.length; s++) {
            int fails = 0;
            for (int t = 0; t < TRIALS; t++) {
                double[][][] ab = m.pairs(pairs, CHANGES[s], rng);
                Interval r = Ratio.paired(ab[0], ab[1], Verdict.CONFIDENCE);
                fails += Verdict.of(r, Direction.LOWER_IS_BETTER, Verdict.DEFAULT_MIN_EFFECT) == Verdict.WORSE ? 1 : 0;
            }
            out[s] = fails / (double) TRIALS;
        }
        return out;
    }

    @Test
    void theGateFailsRarelyWithoutAChangeAndMoreOftenTheLargerItIs() {
        for (double[] rates : new double[][]{failRates(NoisyMachine.DRIFT, 20, 1), failRates(PINNED, 40, 2)}) {
            assertThat(rates[0]).as("no change").isLessThanOrEqualTo(0.0075);
            for (int i = 1; i < rates.length; i++) {
                assertThat(rates[i]).as("fails more often at a larger change").isGreaterThan(rates[i - 1]);
            }
        }
    }

    @Test
    void onAQuietEnoughMachineAThreePercentSlowdownFailsTheGate95PercentOfTheTime() {
        assertThat(failRates(PINNED, 40, 3)[3]).isGreaterThanOrEqualTo(0.95);
    }

    static String table() {
        StringBuilder sb = new StringBuilder("| machine | pairs | true change 0 % | 1 % | 2 % | 3 % | 5 % |\n"
                + "|---|---|---|---|---|---|---|\n");
        Object[][] rows = {{NoisyMachine.DRIFT, 20, 10L}, {PINNED, 40, 11L}};
        for (Object[] row : rows) {
            NoisyMachine m = (NoisyMachine) row[0];
            double[] r = failRates(m, (Integer) row[1], (Long) row[2]);
            sb.append(String.format(Locale.ROOT, "| %s | %d | %.2f %% | %.1f %% | %.1f %% | %.1f %% | %.1f %% |%n",
                    m.name(), (Integer) row[1], r[0] * 100, r[1] * 100, r[2] * 100, r[3] * 100, r[4] * 100));
        }
        return sb.toString();
    }

    @Test
    void theDocsShowWhatTheSimulationGives() throws IOException {
        assertThat(DocsTable.shown("GateRatesTest")).isEqualTo(table().strip());
    }

    public static void main(String[] args) {
        System.out.print(table());
    }
}

package dev.inferbench.stats;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Leaving out the pairs the machine disturbed (compare's default; {@code --keep-disturbed} keeps them), on the
 * drifting VM with bursts of {@link NoisyMachine#BURSTS}, 20 pairs, paired 99 % intervals. The detector is a
 * canary: it flags a burst-hit pair with probability 0.8 and any other pair with probability 0.02. The flag
 * depends on the machine, never on which build ran, so dropping whole pairs can neither bias the ratio nor raise
 * the A/A rate; it removes the pairs whose two forks the burst hit unequally.
 */
class DisturbedPairsTest {
    private static final int PAIRS = 20;
    private static final int TRIALS = 4000;

    /** {A/A flagged either way, median ratio at a 5 % slowdown, share of 5 % slowdowns found, mean pairs kept}. */
    static double[] rates(boolean leaveOut, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        int aa = 0;
        int found = 0;
        double kept = 0;
        double[] ratios = new double[TRIALS];
        for (int s = 0; s < 2; s++) {
            double slowdown = s == 0 ? 0 : 0.05;
            for (int t = 0; t < TRIALS; t++) {
                boolean[] hit = new boolean[PAIRS];
                double[][][] ab = NoisyMachine.BURSTS.pairs(PAIRS, slowdown, rng, hit);
                List<double[]> a = new ArrayList<>();
                List<double[]> b = new ArrayList<>();
                for (int i = 0; i < PAIRS; i++) {
                    boolean flagged = rng.nextDouble() < (hit[i] ? 0.8 : 0.02);
                    if (!leaveOut || !flagged) {
                        a.add(ab[0][i]);
                        b.add(ab[1][i]);
                    }
                }
                Interval r = Ratio.paired(a.toArray(double[][]::new), b.toArray(double[][]::new), Verdict.CONFIDENCE);
                Verdict v = Verdict.of(r, Direction.LOWER_IS_BETTER, Verdict.DEFAULT_MIN_EFFECT);
                if (s == 0) {
                    aa += v == Verdict.WORSE || v == Verdict.BETTER ? 1 : 0;
                    kept += a.size();
                } else {
                    found += v == Verdict.WORSE ? 1 : 0;
                    ratios[t] = r.estimate();
                }
            }
        }
        java.util.Arrays.sort(ratios);
        return new double[]{aa / (double) TRIALS, ratios[TRIALS / 2], found / (double) TRIALS, kept / TRIALS};
    }

    @Test
    void leavingDisturbedPairsOutNeitherBiasesNorRaisesTheFalseAlarmRate() {
        double[] out = rates(true, 21);
        double[] kept = rates(false, 21);
        assertThat(out[0]).as("A/A, disturbed pairs left out").isLessThanOrEqualTo(0.0125);
        assertThat(out[1]).as("median ratio of a true 5 % slowdown").isBetween(1.045, 1.055);
        assertThat(out[2]).as("5 % found, left out vs kept").isGreaterThan(kept[2]);
    }

    static String line() {
        double[] out = rates(true, 30);
        double[] kept = rates(false, 30);
        return String.format(Locale.ROOT, "left out: A/A %.2f %%, median ratio at +5 %% %.4f, 5 %% found %.0f %%,"
                        + " %.1f pairs of %d kept; kept: A/A %.2f %%, median ratio %.4f, 5 %% found %.0f %%",
                out[0] * 100, out[1], out[2] * 100, out[3], PAIRS, kept[0] * 100, kept[1], kept[2] * 100);
    }

    @Test
    void theDocsShowWhatTheSimulationGives() throws IOException {
        String docs = Files.readString(Path.of("docs/statistics.md"), StandardCharsets.UTF_8).replaceAll("\\s+", " ");
        assertThat(docs).contains("(`DisturbedPairsTest`) " + line());
    }

    public static void main(String[] args) {
        System.out.println(line());
    }
}

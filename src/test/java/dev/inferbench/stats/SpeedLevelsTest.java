package dev.inferbench.stats;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SpeedLevelsTest {

    /** Planted: 16 forks of 10 iterations near 2.4 µs (±2 %), and 13 iterations in 3 forks at 1.6x that. */
    @Test
    void plantedSlowStretchesAreCountedAndTheirLevelRead() {
        Random r = new Random(7);
        double[][] medians = new double[16][10];
        int planted = 0;
        for (int f = 0; f < 16; f++) {
            for (int i = 0; i < 10; i++) {
                boolean slow = (f == 3 && i >= 5) || (f == 9 && i < 4) || (f == 12 && i >= 6);
                planted += slow ? 1 : 0;
                medians[f][i] = 2.4 * (1 + 0.02 * (2 * r.nextDouble() - 1)) * (slow ? 1.6 : 1);
            }
        }
        SpeedLevels s = SpeedLevels.of(medians);
        assertEquals(13, planted);
        assertEquals(160, s.iterations());
        assertEquals(planted, s.slow());
        assertEquals(3, s.forksHit());
        assertEquals(16, s.forks());
        assertEquals(2.4, s.lowest(), 2.4 * 0.03);
        assertEquals(1.6, s.slowLevel(), 0.05);
    }

    @Test
    void aSteadyMachineHasNoSlowIteration() {
        Random r = new Random(11);
        double[][] medians = new double[8][30];
        for (double[] fork : medians) {
            for (int i = 0; i < fork.length; i++) {
                fork[i] = 2.4 * (1 + 0.05 * r.nextGaussian());
            }
        }
        SpeedLevels s = SpeedLevels.of(medians);
        assertEquals(0, s.slow());
        assertEquals(0, s.forksHit());
        assertEquals(Double.NaN, s.slowLevel());
    }
}

package dev.inferbench.stats;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class LineFitTest {

    @Test
    void theLeastSquaresLine() {
        LineFit f = LineFit.of(new double[]{1, 2, 4, 8, 16}, new double[]{312, 324, 348, 396, 492});
        assertThat(f.slope()).isCloseTo(12.0, within(1e-9));
        assertThat(f.intercept()).isCloseTo(300.0, within(1e-9));
        assertThat(LineFit.of(new double[]{4, 4}, new double[]{1, 2}).slope()).as("one x: no slope").isNaN();
    }

    /** Each point's mean over k forks with its t interval, as a cell's: the slope's interval covers the true slope. */
    private static Interval point(double truth, double forkSd, int forks, Random r) {
        double[][] f = new double[forks][];
        for (int i = 0; i < forks; i++) {
            f[i] = new double[]{truth + forkSd * r.nextGaussian()};
        }
        return ForkMeans.interval(f, 0.95);
    }

    @Test
    void theSlopesIntervalFromThePointsOwnCoversAtItsConfidence() {
        Random r = new Random(11);
        double[] x = {1, 8};
        int covered = 0;
        int runs = 2000;
        for (int i = 0; i < runs; i++) {
            // a default run's two batch sizes, 16 forks each, fork noise of 5 MiB around 360 + 7.5 MiB per sample
            Interval[] y = {point(367.5, 5, 16, r), point(420, 5, 16, r)};
            Interval s = LineFit.slope(x, y, 0.95);
            covered += s.contains(7.5) ? 1 : 0;
        }
        assertThat(covered / (double) runs).isBetween(0.94, 0.985);
    }

    @Test
    void aPointWithoutAnIntervalLeavesTheSlopesUnknown() {
        Interval[] y = {new Interval(300, Double.NaN, Double.NaN, 0.95, 1), new Interval(370, 368, 372, 0.95, 3)};
        Interval s = LineFit.slope(new double[]{1, 8}, y, 0.95);
        assertThat(s.estimate()).isCloseTo(10.0, within(1e-9));
        assertThat(s.known()).isFalse();
    }
}

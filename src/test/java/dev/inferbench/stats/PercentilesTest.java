package dev.inferbench.stats;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class PercentilesTest {

    /** Fork f's calls: 100 calls at each of 10 + f + {0..9} ms, so fork medians are 14.5 + f-ish. */
    private static List<double[][]> forks(int k, double shift) {
        List<double[][]> out = new ArrayList<>();
        for (int f = 0; f < k; f++) {
            double[][] h = new double[10][];
            for (int v = 0; v < 10; v++) {
                h[v] = new double[]{(10 + f + v) * shift, 100};
            }
            out.add(h);
        }
        return out;
    }

    @Test
    void nearestRankOverAllForks() {
        Percentiles p = new Percentiles(List.of(new double[][]{{1, 50}, {2, 50}}, new double[][]{{3, 100}}));
        assertThat(p.estimate(50)).isEqualTo(2.0);
        assertThat(p.estimate(25)).isEqualTo(1.0);
        assertThat(p.estimate(99)).isEqualTo(3.0);
    }

    @Test
    void intervalResamplesForksAndIsReproducible() {
        Percentiles p = new Percentiles(forks(6, 1));
        Interval a = p.interval(50, 0.95);
        assertThat(a).isEqualTo(p.interval(50, 0.95));
        assertThat(a.lower()).isLessThan(a.estimate());
        assertThat(a.upper()).isGreaterThan(a.estimate());
        // forks differ by 1 ms each, so the median's interval spans about a ms or more, not a call's resolution
        assertThat(a.upper() - a.lower()).isGreaterThanOrEqualTo(1.0);
    }

    @Test
    void ratioOfPercentiles() {
        Interval same = Percentiles.ratio(new Percentiles(forks(6, 1)), new Percentiles(forks(6, 1)), 99, 0.95);
        assertThat(same.estimate()).isEqualTo(1.0);
        assertThat(same.contains(1.0)).isTrue();
        Interval slower = Percentiles.ratio(new Percentiles(forks(6, 1)), new Percentiles(forks(6, 1.5)), 50, 0.95);
        assertThat(slower.estimate()).isEqualTo(1.5);
        assertThat(slower.lower()).isGreaterThan(1.0);
    }

    @Test
    void noisyForksCoverTheirTrueMedianMostOfTheTime() {
        SplittableRandom rng = new SplittableRandom(9);
        int covered = 0;
        for (int t = 0; t < 200; t++) {
            List<double[][]> h = new ArrayList<>();
            for (int f = 0; f < 10; f++) {
                double forkShift = rng.nextGaussian();
                double[][] calls = new double[11][];
                for (int v = 0; v < 11; v++) {
                    calls[v] = new double[]{20 + forkShift + (v - 5) * 0.2, 100};
                }
                h.add(calls);
            }
            if (new Percentiles(h).interval(50, 0.95).contains(20)) {
                covered++;
            }
        }
        // the percentile bootstrap is a bit narrow at 10 forks; the point is that it is nowhere near 0
        assertThat(covered / 200.0).isGreaterThan(0.6);
    }
}

package dev.inferbench.stats;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class TrimmedMeanTest {
    /** One iteration's bins: calls of about 2.4 µs with one in 20 twice as long, and {@code stalls} calls of 5 ms. */
    private static double[] iteration(Random r, double scale, int stalls) {
        double[] bins = new double[2 * 41];
        for (int i = 0; i < 40; i++) {
            bins[2 * i] = scale * (i < 38 ? 2.3 + 0.005 * i : 4.8);
            bins[2 * i + 1] = i < 38 ? 250 + r.nextInt(10) : 260;
        }
        bins[80] = scale * 5000;
        bins[81] = stalls;
        return bins;
    }

    @Test
    void stallsAreLeftOutAndTheCodesOwnLongCallsKept() {
        double[] one = iteration(new Random(1), 1, 3);
        double[][] t = TrimmedMean.perIteration(List.of(List.of(one)));
        double kept = 0;
        double n = 0;
        for (int i = 0; i < 80; i += 2) {
            kept += one[i] * one[i + 1];
            n += one[i + 1];
        }
        assertThat(t[0][0]).isCloseTo(kept / n, within(1e-12));
        // the 4.8 µs calls (twice the median) are in it: above the mean of the 2.3-2.5 µs calls alone
        assertThat(t[0][0]).isGreaterThan(2.5);
    }

    @Test
    void everyCallSlowerByAFactorReadsThatFactorWhateverTheStalls() {
        Random r = new Random(7);
        List<double[]> base = List.of(iteration(r, 1, 0), iteration(r, 1, 40));
        r = new Random(7);
        List<double[]> head = List.of(iteration(r, 1.05, 40), iteration(r, 1.05, 0));
        double[][] b = TrimmedMean.perIteration(List.of(base));
        double[][] h = TrimmedMean.perIteration(List.of(head));
        // the same calls, each 5 % longer: the stalls moved between iterations change nothing
        assertThat(h[0][0] / b[0][0]).isCloseTo(1.05, within(1e-12));
        assertThat(h[0][1] / b[0][1]).isCloseTo(1.05, within(1e-12));
    }

    @Test
    void theCutIsEachForksOwnMedian() {
        // a fork whose calls all run at 1.6x (a slow stretch of the host) keeps all of them, as the quick fork does
        double[][] t = TrimmedMean.perIteration(List.of(List.of(new double[]{2.4, 100, 10.0, 1}),
                List.of(new double[]{3.84, 100, 10.0, 1})));
        assertThat(t[0][0]).isCloseTo(2.4, within(1e-12)); // 10 is over 4x 2.4
        assertThat(t[1][0]).isCloseTo((3.84 * 100 + 10.0) / 101, within(1e-12)); // under 4x 3.84
    }

    @Test
    void anIterationWithoutCallsIsNaN() {
        double[][] t = TrimmedMean.perIteration(List.of(List.of(new double[0], new double[]{1.0, Double.NaN})));
        assertThat(t[0][0]).isNaN();
        assertThat(t[0][1]).isNaN();
    }
}

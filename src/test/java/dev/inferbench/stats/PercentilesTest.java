package dev.inferbench.stats;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PercentilesTest {

    @Test
    void nearestRankOverAllForks() {
        Percentiles p = new Percentiles(List.of(new double[][]{{1, 50}, {2, 50}}, new double[][]{{3, 100}}));
        assertThat(p.estimate(50)).isEqualTo(2.0);
        assertThat(p.estimate(25)).isEqualTo(1.0);
        assertThat(p.estimate(99)).isEqualTo(3.0);
    }

    @Test
    void atRankTakesTheCeilingRankAndClampsAtBothEnds() {
        double[] sorted = {10, 20, 30, 40};
        assertThat(Percentiles.atRank(sorted, 50)).isEqualTo(20.0);
        assertThat(Percentiles.atRank(sorted, 51)).isEqualTo(30.0);
        assertThat(Percentiles.atRank(sorted, 0.001)).as("never below the first").isEqualTo(10.0);
        assertThat(Percentiles.atRank(sorted, 100)).isEqualTo(40.0);
        assertThat(Percentiles.atRank(sorted, 150)).as("never past the last").isEqualTo(40.0);
        assertThat(Percentiles.atRank(new long[]{7, 9, 1_000_000_000_000L}, 99)).isEqualTo(1e12);
        assertThat(Percentiles.atRank(new long[]{5}, 1)).isEqualTo(5.0);
    }

    @Test
    void atRankOfNothingIsNaN() {
        assertThat(Percentiles.atRank(new double[0], 50)).isNaN();
        assertThat(Percentiles.atRank(new long[0], 99)).isNaN();
    }

    @Test
    void nearestRankAsksForCallsBehindThePercentile() {
        double[] ninetyNine = new double[99];
        for (int i = 0; i < ninetyNine.length; i++) {
            ninetyNine[i] = i + 1;
        }
        assertThat(Percentiles.nearestRank(ninetyNine, 90)).as("p90 needs 100 calls").isNaN();
        assertThat(Percentiles.nearestRank(ninetyNine, 50)).isEqualTo(50.0);
        assertThat(Percentiles.atRank(ninetyNine, 90)).isEqualTo(90.0);
    }

    @Test
    void medianOfOddAndEvenCountsInAnyOrder() {
        double[] values = {3, 1, 2};
        assertThat(Percentiles.median(values)).isEqualTo(2.0);
        assertThat(values).as("the readings are left as given").containsExactly(3, 1, 2);
        assertThat(Percentiles.median(new double[]{4, 1, 3, 2})).isEqualTo(2.5);
        assertThat(Percentiles.median(new double[]{7})).isEqualTo(7.0);
        assertThat(Percentiles.median(new double[0])).isNaN();
    }
}

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
}

package dev.inferbench.results;

import dev.inferbench.results.jmh.JmhMetric;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ForkRuleTest {
    private static JmhMetric metric(double jmhScore, List<List<Double>> raw) {
        return new JmhMetric(jmhScore, Double.NaN, new double[]{Double.NaN, Double.NaN}, new TreeMap<>(), "ms", raw,
                List.of());
    }

    @Test
    void aFigureSomeIterationsLackIsTheMeanOfThoseThatHaveItNotJmhsScore() {
        // gen.prompt.p50 of a run whose third fork's iterations each had too few requests for a p50: JMH wrote
        // 2.444 (22 over all 9 measured iterations) where the two iterations that gave it read 11
        JmhMetric m = metric(22.0 / 9, List.of(List.of(11.0), List.of(11.0), List.of()));
        assertThat(ForkRule.MEAN.value(m)).isEqualTo(11.0);
        JmhMetric itl = metric(9.713 / 9, List.of(List.of(1.6, 1.3, 1.2), List.of(1.4, 1.5, 1.4), List.of(1.4)));
        assertThat(ForkRule.MEAN.value(itl)).isCloseTo(9.8 / 7, within(1e-12));
    }

    @Test
    void aFigureEveryIterationHasIsJmhsScore() {
        JmhMetric m = metric(2.0, List.of(List.of(1.0, 2.0), List.of(3.0, 2.0)));
        assertThat(ForkRule.MEAN.value(m)).isEqualTo(2.0);
        // a SampleTime metric has no raw iteration scores: JMH's score over every call stands
        assertThat(ForkRule.MEAN.value(metric(5.0, List.of()))).isEqualTo(5.0);
    }
}

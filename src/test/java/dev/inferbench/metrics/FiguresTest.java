package dev.inferbench.metrics;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.Result;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The one rule every profiler's figures follow: NaN is "not measured" and left out, unless the figure keeps it. */
class FiguresTest {

    @Test
    void aFigureNotMeasuredIsLeftOutAndTheRestKeepTheirOrder() {
        List<Result> out = new Figures().add("a", 1.5, "ms").add("b", Double.NaN, "ms").max("c", 7, "MiB")
                .max("d", Double.NaN, "MiB").kept("e", Double.NaN, "%").results();
        assertThat(out).extracting(Result::getLabel).containsExactly("a", "c", "e");
        assertThat(out).extracting(Result::getScoreUnit).containsExactly("ms", "MiB", "%");
        assertThat(out.get(2).getScore()).isNaN();
    }
}

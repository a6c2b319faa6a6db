package dev.inferbench.compare;

import org.junit.jupiter.api.Test;

import static dev.inferbench.stats.Direction.HIGHER_IS_BETTER;
import static dev.inferbench.stats.Direction.LOWER_IS_BETTER;
import static dev.inferbench.stats.Direction.UNKNOWN;
import static org.assertj.core.api.Assertions.assertThat;

/** The one direction rule of compare and the exports, on the metric names this harness writes. */
class DirectionsTest {
    @Test
    void qualityAndThroughputGrowTimesMemoryAndErrorsShrink() {
        assertThat(Directions.of("samples", "samples/s")).isEqualTo(HIGHER_IS_BETTER);
        assertThat(Directions.of("gmacs", "GMAC/s")).isEqualTo(HIGHER_IS_BETTER);
        assertThat(Directions.of("gmacs", "")).isEqualTo(HIGHER_IS_BETTER);
        assertThat(Directions.of("accuracy.top1", "%")).isEqualTo(HIGHER_IS_BETTER);
        assertThat(Directions.of("accuracy.top5", "%")).isEqualTo(HIGHER_IS_BETTER);
        assertThat(Directions.of("fidelity.top1", "%")).isEqualTo(HIGHER_IS_BETTER);
        assertThat(Directions.of("fidelity.cosine", "cos")).isEqualTo(HIGHER_IS_BETTER);
        assertThat(Directions.of("fidelity.maxabs", "abs")).isEqualTo(LOWER_IS_BETTER);
        assertThat(Directions.of("time", "ms/op")).isEqualTo(LOWER_IS_BETTER);
        assertThat(Directions.of("mem.rss.peak", "MB")).isEqualTo(LOWER_IS_BETTER);
        assertThat(Directions.of("mem.activation.peak", "MB")).isEqualTo(LOWER_IS_BETTER);
        assertThat(Directions.of("gc.alloc.rate", "MB/sec")).isEqualTo(LOWER_IS_BETTER);
        assertThat(Directions.of("load.time", "ms")).isEqualTo(LOWER_IS_BETTER);
        assertThat(Directions.of("first.inference", "ms")).isEqualTo(LOWER_IS_BETTER);
        assertThat(Directions.of("coldstart.process", "ms")).isEqualTo(LOWER_IS_BETTER);
        assertThat(Directions.of("model.params", "params")).isEqualTo(UNKNOWN);
    }
}

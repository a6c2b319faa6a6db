package dev.inferbench.bench.calibration;

import dev.inferbench.BenchException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** calibrate aid-check's arguments: a slowdown and a number of rounds, each refused in one line when wrong. */
class AidCheckTest {
    @Test
    void readsAPercentWithOrWithoutItsSign() throws Exception {
        assertThat(AidCheck.percent("3")).isEqualTo(3.0);
        assertThat(AidCheck.percent(" 5% ")).isEqualTo(5.0);
        assertThat(AidCheck.percent("100")).isEqualTo(100.0);
    }

    @Test
    void refusesAPercentOutsideItsRangeOrNotANumber() {
        for (String bad : new String[]{"0", "-3", "101", "three", ""}) {
            assertThatThrownBy(() -> AidCheck.percent(bad)).as(bad).isInstanceOf(BenchException.class)
                    .hasMessageContaining("'" + bad + "' is not a slowdown").hasMessageContaining("expected e.g. 3");
        }
    }

    @Test
    void roundsAreAWholeNumberOfEightOrMore() throws Exception {
        assertThat(AidCheck.rounds("3200")).isEqualTo(3200);
        assertThat(AidCheck.rounds("8")).isEqualTo(8);
        for (String bad : new String[]{"7", "0", "1.5", "many"}) {
            assertThatThrownBy(() -> AidCheck.rounds(bad)).as(bad).isInstanceOf(BenchException.class)
                    .hasMessageContaining("ROUNDS '" + bad + "'").hasMessageContaining("expected e.g. 4800");
        }
    }
}

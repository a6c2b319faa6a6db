package dev.inferbench.bench.calibration;

import dev.inferbench.BenchException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** calibrate step-check's numbers: each a whole number from its least, refused in one line when not. */
class StepCheckTest {
    @Test
    void readsWholeNumbersFromTheirLeast() throws Exception {
        assertThat(StepCheck.whole("PROMPT_LEN", "1", 1, "32")).isEqualTo(1);
        assertThat(StepCheck.whole("OUTPUT_LEN", " 64 ", 2, "64")).isEqualTo(64);
        assertThat(StepCheck.whole("ROUNDS", "400", 8, "400")).isEqualTo(400);
    }

    @Test
    void refusesWhatIsNotAWholeNumberFromItsLeast() {
        for (String bad : new String[]{"1", "0", "-2", "2.5", "many", ""}) {
            assertThatThrownBy(() -> StepCheck.whole("OUTPUT_LEN", bad, 2, "64")).as(bad)
                    .isInstanceOf(BenchException.class)
                    .hasMessage("OUTPUT_LEN '" + bad + "' is not a whole number >= 2; expected e.g. 64");
        }
    }
}

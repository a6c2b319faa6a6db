package dev.inferbench;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NumbersTest {
    @Test
    void wholeAtLeastTakesTheLeastAndAboveWithSpaceAround() throws BenchException {
        assertThat(Numbers.wholeAtLeast("1", 1, "batchSize", "e.g. 8")).isEqualTo(1);
        assertThat(Numbers.wholeAtLeast(" 64 ", 1, "batchSize", "e.g. 8")).isEqualTo(64);
        assertThat(Numbers.wholeAtLeast("0", 0, "users", "0 for the open loop")).isZero();
        assertThat(Numbers.wholeAtLeast("2147483647", 1, "n", "any")).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void wholeAtLeastRefusesInOneLineWhatWasGivenAndWhatWasExpected() {
        for (String bad : new String[]{"0", "-3", "1.5", "eight", "", "2147483648"}) {
            assertThatThrownBy(() -> Numbers.wholeAtLeast(bad, 1, "--max-forks", "forks per cell")).as(bad)
                    .isInstanceOf(BenchException.class)
                    .hasMessage("--max-forks '" + bad + "' is not a whole number >= 1; expected forks per cell");
        }
        assertThatThrownBy(() -> Numbers.wholeAtLeast("-1", 0, "threads", "0 for all cores"))
                .hasMessage("threads '-1' is not a whole number >= 0; expected 0 for all cores");
    }

    @Test
    void durationsInJmhsUnitsAndHours() throws BenchException {
        assertThat(Numbers.duration("500ms", "--budget")).isEqualTo(Duration.ofMillis(500));
        assertThat(Numbers.duration("90s", "--budget")).isEqualTo(Duration.ofSeconds(90));
        assertThat(Numbers.duration("20m", "--budget")).isEqualTo(Duration.ofMinutes(20));
        assertThat(Numbers.duration(" 1h ", "--budget")).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void aDurationThatIsNoneOrNotOneIsRefused() {
        for (String bad : new String[]{"0s", "soon", "", "-5m", "10 parsecs"}) {
            assertThatThrownBy(() -> Numbers.duration(bad, "--fork-timeout")).as(bad)
                    .isInstanceOf(BenchException.class)
                    .hasMessage("--fork-timeout '" + bad + "' is not a duration; expected e.g. 90s, 10m, 1h");
        }
    }

    @Test
    void percentWithOrWithoutTheSignIsAFraction() throws BenchException {
        assertThat(Numbers.percent("3%", "--precision")).isEqualTo(0.03);
        assertThat(Numbers.percent("3", "--precision")).isEqualTo(0.03);
        assertThat(Numbers.percent("0.5", "--precision")).isEqualTo(0.005);
        assertThat(Numbers.percent(" 99.9% ", "--precision")).isEqualTo(0.999, org.assertj.core.api.Assertions.within(1e-12));
    }

    @Test
    void percentOutsideZeroToHundredIsRefused() {
        for (String bad : new String[]{"0", "100", "150%", "-2%", "two", "%"}) {
            assertThatThrownBy(() -> Numbers.percent(bad, "--min-effect")).as(bad)
                    .hasMessage("--min-effect '" + bad + "' is not a percentage between 0 and 100; expected e.g. 2%");
        }
    }

    @Test
    void percentTextIsWhatAUserWouldWriteBack() {
        assertThat(Numbers.percentText(0.03)).isEqualTo("3");
        assertThat(Numbers.percentText(0.9975)).isEqualTo("99.75");
        assertThat(Numbers.percentText(0.999)).as("no binary noise").isEqualTo("99.9");
        assertThat(Numbers.percentText(0.07)).as("7.000000000000001 before rounding").isEqualTo("7");
        assertThat(Numbers.percentText(0.95)).isEqualTo("95");
        assertThat(Numbers.percentText(0)).isEqualTo("0");
        assertThat(Numbers.percentText(1.5)).isEqualTo("150");
    }
}

package dev.inferbench.bench;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The calibration aid adds exactly the share of extra calls asked for, spread over the calls. */
class InjectedSlowdownTest {
    @AfterEach
    void clear() {
        System.clearProperty(InjectedSlowdown.PROPERTY);
    }

    private static int extraOver(int calls) {
        InjectedSlowdown s = InjectedSlowdown.ofProperty();
        int extra = 0;
        for (int i = 0; i < calls; i++) {
            extra += s.extraCalls();
        }
        return extra;
    }

    @Test
    void threePercentIsThreeExtraCallsInAHundredEvenlySpread() {
        System.setProperty(InjectedSlowdown.PROPERTY, "3");
        assertThat(extraOver(10_000)).isEqualTo(300);
        InjectedSlowdown s = InjectedSlowdown.ofProperty();
        int first = 0;
        while (s.extraCalls() == 0) {
            first++;
        }
        assertThat(first + 1).as("the first extra call comes after the 34th call").isEqualTo(34);
    }

    @Test
    void offByDefaultAndAboveAHundredPercentSeveralAtOnce() {
        assertThat(extraOver(1000)).isZero();
        System.setProperty(InjectedSlowdown.PROPERTY, "250");
        assertThat(extraOver(100)).isEqualTo(250);
        assertThat(InjectedSlowdown.describe(0)).isEmpty();
        assertThat(InjectedSlowdown.describe(5)).contains("one extra call every 20.0 calls");
    }

    @Test
    void aValueThatIsNoPercentageFailsTheCellWithOneLine() {
        System.setProperty(InjectedSlowdown.PROPERTY, "fast");
        assertThatThrownBy(InjectedSlowdown::percent).isInstanceOf(CellFailure.class)
                .hasMessageContaining("'fast' is not a percentage from 0 to 1000");
    }
}

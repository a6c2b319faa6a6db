package dev.inferbench.plant;

import dev.inferbench.BenchException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TailPlantTest {
    @Test
    void eachKindTakesEveryHowManyCalls() throws BenchException {
        assertThat(TailPlant.parse("gc=50, safepoint=40").describe())
                .isEqualTo("tail plant: a collection every 50 calls, a thread dump every 40, a rival on the caller's"
                        + " CPU every 0 (0: none)");
        for (String bad : new String[] {"gc", "gc=2", "gc=x", "jit=10", "gc=10;safepoint=10"}) {
            assertThatThrownBy(() -> TailPlant.parse(bad)).as(bad).isInstanceOf(BenchException.class)
                    .hasMessageContaining("expected gc=N, safepoint=N or descheduled=N (every Nth call, N at least 3)");
        }
    }

    @Test
    void theKindsFallOnDifferentCallsOfTheirPeriod() {
        int gc = 0;
        int both = 0;
        for (long n = 1; n <= 300; n++) {
            boolean g = TailPlant.planted(n, 30, 0);
            boolean s = TailPlant.planted(n, 30, 1);
            boolean d = TailPlant.planted(n, 30, 2);
            gc += g ? 1 : 0;
            both += (g ? 1 : 0) + (s ? 1 : 0) + (d ? 1 : 0) > 1 ? 1 : 0;
        }
        assertThat(gc).isEqualTo(10);
        assertThat(both).isZero();
        assertThat(TailPlant.planted(10, 30, 1)).isTrue();
        assertThat(TailPlant.planted(20, 30, 2)).isTrue();
        assertThat(TailPlant.planted(30, 0, 0)).as("0: none").isFalse();
    }

    @Test
    void noPropertyPlantsNothing() throws BenchException {
        System.clearProperty(TailPlant.PROPERTY);
        assertThat(TailPlant.ofProperty()).isSameAs(TailPlant.NONE);
        TailPlant.NONE.before(1);
        TailPlant.NONE.after(1);
    }
}

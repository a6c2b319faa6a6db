package dev.inferbench.plant;

import dev.inferbench.BenchException;
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

    private static int extraOver(int calls) throws BenchException {
        InjectedSlowdown s = InjectedSlowdown.ofProperty();
        int extra = 0;
        for (int i = 0; i < calls; i++) {
            extra += s.owedCalls();
        }
        return extra;
    }

    @Test
    void threePercentIsThreeExtraCallsInAHundredEvenlySpread() throws BenchException {
        System.setProperty(InjectedSlowdown.PROPERTY, "3");
        assertThat(extraOver(10_000)).isEqualTo(300);
        InjectedSlowdown s = InjectedSlowdown.ofProperty();
        int first = 0;
        while (s.owedCalls() == 0) {
            first++;
        }
        assertThat(first + 1).as("the first extra call comes after the 34th call").isEqualTo(34);
    }

    @Test
    void aShortCallOwesItsShareAndALongOneIsWaitedOutByItsShareOfItsOwnTime() throws BenchException {
        long[] now = {0};
        // a clock that moves 1 µs at every read, so a spin ends and its length is counted in reads
        InjectedSlowdown s = new InjectedSlowdown(3, () -> now[0] += 1_000);
        int extra = 0;
        for (int i = 0; i < 100; i++) {
            long start = s.start();
            now[0] += 500_000; // a 0.5 ms call: below the timed limit, so the schedule of extra calls
            extra += s.extraCalls(start);
        }
        assertThat(extra).isEqualTo(3);

        s = new InjectedSlowdown(3, () -> now[0] += 1_000);
        long start = s.start();
        now[0] += 140_000_000; // a 140 ms call (resnet50 at batch 1): 3 % of it is 4.2 ms, waited out on the clock
        long end = now[0];
        assertThat(s.extraCalls(start)).isZero();
        long waited = now[0] - end;
        assertThat(waited).isBetween(4_200_000L, 4_203_000L);

        // off: no clock read at all
        InjectedSlowdown off = new InjectedSlowdown(0, () -> {
            throw new AssertionError("the clock was read with the aid off");
        });
        assertThat(off.extraCalls(off.start())).isZero();
    }

    @Test
    void shortCallsReadTheClockOnOneCallInSixtyFourAndNoticeCallsThatGrowLong() throws BenchException {
        long[] now = {0};
        int[] reads = {0};
        InjectedSlowdown s = new InjectedSlowdown(3, () -> {
            reads[0]++;
            return now[0] += 1_000; // 1 µs a read, so that a spin ends
        });
        int extra = 0;
        for (int i = 0; i < 6_400; i++) {
            long start = s.start();
            now[0] += 4_500; // a 4.5 µs call: two clock reads would be 1 % of it
            extra += s.extraCalls(start);
        }
        assertThat(extra).isEqualTo(192); // 3 % of 6,400, as with the clock read on every call
        // the first call and then one in 64 are timed, two reads each
        assertThat(reads[0]).isEqualTo(2 * 6_400 / InjectedSlowdown.CHECK_EVERY);
        // calls that grow past the limit are waited out from the next check on, and every one after it
        int first = -1;
        for (int i = 0; i < 2 * InjectedSlowdown.CHECK_EVERY; i++) {
            long start = s.start();
            now[0] += 2_000_000;
            long end = now[0];
            s.extraCalls(start);
            boolean waited = now[0] - end >= 60_000; // 3 % of 2 ms
            if (first < 0 && waited) {
                first = i;
            }
            assertThat(waited || first < 0).as("call %d after the first waited one", i).isTrue();
        }
        assertThat(first).isBetween(0, InjectedSlowdown.CHECK_EVERY - 1);
    }

    @Test
    void offByDefaultAndAboveAHundredPercentSeveralAtOnce() throws BenchException {
        assertThat(extraOver(1000)).isZero();
        System.setProperty(InjectedSlowdown.PROPERTY, "250");
        assertThat(extraOver(100)).isEqualTo(250);
        assertThat(InjectedSlowdown.describe(0)).isEmpty();
        assertThat(InjectedSlowdown.describe(5)).contains("one extra call every 20.0 calls");
    }

    @Test
    void aValueThatIsNoPercentageFailsTheCellWithOneLine() throws BenchException {
        System.setProperty(InjectedSlowdown.PROPERTY, "fast");
        assertThatThrownBy(InjectedSlowdown::percent).isInstanceOf(BenchException.class)
                .hasMessageContaining("'fast' is not a percentage from 0 to 1000");
    }
}

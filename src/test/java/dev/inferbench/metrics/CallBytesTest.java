package dev.inferbench.metrics;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CallBytesTest {
    @AfterEach
    void clear() {
        CallBytes.reset();
    }

    @Test
    void readsEveryLongCallAndFewShortOnes() {
        assertThat(CallBytes.stride(20_000_000)).isEqualTo(1);
        assertThat(CallBytes.stride(130_000)).isEqualTo(1);
        assertThat(CallBytes.stride(4_600)).isEqualTo(29);
        assertThat(CallBytes.stride(2_000)).isEqualTo(65);
        assertThat(CallBytes.stride(1)).isEqualTo(4096);
    }

    /**
     * A caller whose calls allocate 64 B but every 7th call 128 B reads the mean over all calls, 73.1 B, though only
     * some calls are read: which ones is a random draw, so the rare big call is read as often as its share. The draw's
     * gaps follow each read call's time, so the reads are as many as the machine's speed makes them: at one in 4,096
     * (the longest gap) 7 million calls give about 1,700 reads, over which the mean's sd is 0.7 % (3 % is four of them).
     */
    @Test
    void meanOverReadCallsIsTheMeanOverAllCalls() {
        CallBytes.Sampler s = CallBytes.sampler(1);
        Object sink = null;
        for (int i = 0; i < 7_000_000; i++) {
            s.before();
            sink = new byte[i % 7 == 0 ? 128 - 16 : 64 - 16];
            s.after();
        }
        assertThat(sink).isNotNull();
        double expected = (6 * 64 + 128) / 7.0;
        assertThat(CallBytes.callsRead()).isBetween(1_000L, 7_000_000L);
        assertThat(CallBytes.perCall()).isCloseTo(expected, org.assertj.core.data.Offset.offset(expected * 0.03));
    }

    @Test
    void nothingReadIsNotZero() {
        assertThat(CallBytes.perCall()).isNaN();
    }
}

package dev.inferbench.tensor;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class HalfTest {
    @Test
    void theTableHoldsEveryFloat16ValueAsTheBitwiseConversionGivesIt() {
        for (int h = 0; h < 1 << 16; h++) {
            assertThat(Float.floatToRawIntBits(Half.toFloat((short) h)))
                    .as("float16 0x%04x", h).isEqualTo(Float.floatToRawIntBits(Half.compute((short) h)));
        }
        assertThat(Half.toFloat((short) 0x3C00)).isEqualTo(1.0f);
        assertThat(Half.toFloat((short) 0xC000)).isEqualTo(-2.0f);
        assertThat(Half.toFloat((short) 0x0001)).isEqualTo(0x1p-24f); // the smallest subnormal
        assertThat(Half.toFloat((short) 0x7BFF)).isEqualTo(65504f); // the largest finite
        assertThat(Half.toFloat((short) 0xFC00)).isEqualTo(Float.NEGATIVE_INFINITY);
        assertThat(Half.toFloat((short) 0x7E00)).isNaN();
    }

    @Test
    void aRowConvertsIntoItsPlaceAndRoundTripsThroughFromFloat() {
        float[] values = {0f, -0.5f, 3.140625f, 1e-3f, 60000f, -7.25f};
        short[] halves = new short[values.length];
        for (int i = 0; i < values.length; i++) {
            halves[i] = Half.fromFloat(values[i]);
        }
        float[] out = new float[values.length + 2];
        Half.toFloats(halves, out, 2, values.length);
        assertThat(out[0]).isZero();
        assertThat(out[1]).isZero();
        for (int i = 0; i < values.length; i++) {
            assertThat(out[2 + i]).isEqualTo(Half.compute(halves[i]));
            assertThat(out[2 + i]).isCloseTo(values[i], org.assertj.core.data.Percentage.withPercentage(0.1));
        }
    }
}

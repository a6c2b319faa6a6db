package dev.inferbench.input;

/** IEEE 754 binary16 from float (JDK 17 lacks Float.floatToFloat16): round to nearest even, subnormals kept. */
final class Half {
    private Half() {
    }

    static short fromFloat(float value) {
        int bits = Float.floatToRawIntBits(value);
        int sign = (bits >>> 16) & 0x8000;
        int exp = ((bits >>> 23) & 0xFF) - 127 + 15;
        int mantissa = bits & 0x7FFFFF;
        if (((bits >>> 23) & 0xFF) == 0xFF) {
            return (short) (sign | 0x7C00 | (mantissa != 0 ? 0x200 : 0)); // inf or NaN
        }
        if (exp >= 0x1F) {
            return (short) (sign | 0x7C00); // overflow to infinity
        }
        if (exp <= 0) {
            if (exp < -10) {
                return (short) sign; // below the smallest subnormal
            }
            mantissa |= 0x800000;
            int shift = 14 - exp;
            int half = mantissa >> shift;
            int rest = mantissa & ((1 << shift) - 1);
            int halfway = 1 << (shift - 1);
            if (rest > halfway || (rest == halfway && (half & 1) == 1)) {
                half++;
            }
            return (short) (sign | half);
        }
        int half = sign | (exp << 10) | (mantissa >> 13);
        int rest = mantissa & 0x1FFF;
        if (rest > 0x1000 || (rest == 0x1000 && (half & 1) == 1)) {
            half++; // may carry into the exponent, which is the right result
        }
        return (short) half;
    }
}

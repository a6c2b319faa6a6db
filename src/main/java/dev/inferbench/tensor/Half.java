package dev.inferbench.tensor;

/**
 * IEEE 754 binary16 conversion with round-to-nearest-even (JDK 17 has no Float.floatToFloat16). Values beyond the
 * half range become infinity, tiny ones subnormal or zero, as a cast to float16 in any engine does.
 */
public final class Half {
    private Half() {
    }

    public static short fromFloat(float f) {
        int bits = Float.floatToRawIntBits(f);
        int sign = (bits >>> 16) & 0x8000;
        int exp = (bits >>> 23) & 0xFF;
        int mant = bits & 0x7FFFFF;
        if (exp == 0xFF) {
            return (short) (sign | 0x7C00 | (mant != 0 ? 0x200 : 0));
        }
        int e = exp - 127 + 15;
        if (e >= 0x1F) {
            return (short) (sign | 0x7C00);
        }
        if (e <= 0) {
            if (e < -10) {
                return (short) sign;
            }
            mant |= 0x800000;
            int shift = 14 - e;
            int half = mant >> shift;
            int rest = mant & ((1 << shift) - 1);
            int mid = 1 << (shift - 1);
            if (rest > mid || (rest == mid && (half & 1) == 1)) {
                half++;
            }
            return (short) (sign | half);
        }
        int half = (e << 10) | (mant >> 13);
        int rest = mant & 0x1FFF;
        if (rest > 0x1000 || (rest == 0x1000 && (half & 1) == 1)) {
            half++; // may carry into the exponent, which is the correct rounding up to the next binade or infinity
        }
        return (short) (sign | half);
    }

    /** Every float16 value as a float, filled once (256 KiB): a decoder's logits row is converted by lookup. */
    private static final float[] FLOATS = new float[1 << 16];

    static {
        for (int h = 0; h < FLOATS.length; h++) {
            FLOATS[h] = compute((short) h);
        }
    }

    public static float toFloat(short h) {
        return FLOATS[h & 0xFFFF];
    }

    /** {@code count} float16 values from {@code from} to float32 values from {@code to}. */
    public static void toFloats(short[] from, float[] to, int to0, int count) {
        for (int i = 0; i < count; i++) {
            to[to0 + i] = FLOATS[from[i] & 0xFFFF];
        }
    }

    /** The conversion itself, bit by bit (the table's source). */
    static float compute(short h) {
        int sign = (h & 0x8000) << 16;
        int exp = (h >>> 10) & 0x1F;
        int mant = h & 0x3FF;
        if (exp == 0) {
            return (sign != 0 ? -1 : 1) * mant * 0x1p-24f;
        }
        if (exp == 0x1F) {
            return Float.intBitsToFloat(sign | 0x7F800000 | (mant << 13));
        }
        return Float.intBitsToFloat(sign | ((exp - 15 + 127) << 23) | (mant << 13));
    }
}

package dev.inferbench.input.data;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Seeded mutations of a binary file, for fuzzing readers: flipped and overwritten bytes, cuts, extensions, dropped
 * and inserted runs, and extreme values written over the fields a reader trusts (a header length, a width, a
 * dimension) in either byte order, which random flips alone would rarely reach. The same seed gives the same mutant.
 */
public final class ByteMutator {
    /** Values that break arithmetic on lengths and sizes: wrap to negative, overflow when multiplied, zero. */
    private static final long[] EXTREMES = {0xFFFFFFFFL, 0x7FFFFFFFL, 0x80000000L, 0x7FFFFFFEL, 0, 1, 0xFFFFFFFEL,
            0xFFFF, 0x10000, 0x8000, 0x40000000L, 46341, 65535 * 2};

    private ByteMutator() {
    }

    /**
     * One to four edits of {@code original}; {@code fields} are offsets of length or size fields, each 2 or 4 bytes
     * wide, that an edit may overwrite with an extreme value.
     */
    public static byte[] mutate(byte[] original, long seed, int... fields) {
        SplittableRandom rnd = new SplittableRandom(seed);
        byte[] b = original.clone();
        int edits = 1 + rnd.nextInt(4);
        for (int e = 0; e < edits; e++) {
            int at = b.length == 0 ? 0 : rnd.nextInt(b.length);
            switch (rnd.nextInt(fields.length == 0 ? 7 : 9)) {
                case 0 -> flip(b, at, rnd);
                case 1 -> b = Arrays.copyOf(b, at);
                case 2 -> b = extended(b, b.length, 1 + rnd.nextInt(64), rnd);
                case 3 -> b = cut(b, at, 1 + rnd.nextInt(16));
                case 4 -> b = extended(b, at, 1 + rnd.nextInt(16), rnd);
                case 5 -> overwrite(b, at, extreme(rnd), rnd.nextBoolean() ? 4 : 2, rnd.nextBoolean());
                case 6 -> {
                    if (b.length > 0) {
                        b[at] = (byte) rnd.nextInt(256);
                    }
                }
                default -> overwrite(b, fields[rnd.nextInt(fields.length)], extreme(rnd),
                        rnd.nextBoolean() ? 4 : 2, rnd.nextBoolean());
            }
        }
        return b;
    }

    /** An extreme value, or now and then any 32-bit one. */
    static long extreme(SplittableRandom rnd) {
        return rnd.nextInt(4) == 0 ? rnd.nextInt() & 0xFFFFFFFFL : EXTREMES[rnd.nextInt(EXTREMES.length)];
    }

    private static void flip(byte[] b, int at, SplittableRandom rnd) {
        if (b.length > 0) {
            b[at] ^= (byte) (1 << rnd.nextInt(8));
        }
    }

    private static byte[] cut(byte[] b, int at, int n) {
        int end = Math.min(b.length, at + n);
        byte[] out = new byte[b.length - (end - at)];
        System.arraycopy(b, 0, out, 0, at);
        System.arraycopy(b, end, out, at, b.length - end);
        return out;
    }

    private static byte[] extended(byte[] b, int at, int n, SplittableRandom rnd) {
        byte[] out = new byte[b.length + n];
        System.arraycopy(b, 0, out, 0, at);
        for (int i = 0; i < n; i++) {
            out[at + i] = (byte) rnd.nextInt(256);
        }
        System.arraycopy(b, at, out, at + n, b.length - at);
        return out;
    }

    /** {@code value}'s low {@code width} bytes at {@code at}, as far as the array reaches. */
    private static void overwrite(byte[] b, int at, long value, int width, boolean bigEndian) {
        ByteBuffer v = ByteBuffer.allocate(8).order(bigEndian ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        if (width == 4) {
            v.putInt((int) value);
        } else {
            v.putShort((short) value);
        }
        for (int i = 0; i < width && at + i < b.length; i++) {
            b[at + i] = v.get(i);
        }
    }
}

package dev.inferbench.variant;

/**
 * A float weight matrix {@code W [K, N]} (MatMul's right-hand side) quantized to 4 bits block-wise along K, in the
 * layout of ONNX Runtime's {@code com.microsoft.MatMulNBits} (docs/ContribOperators.md, and MLAS's blockwise
 * quantizer): each output column n is cut into {@code K / block} blocks of K, each with its own scale (and zero point);
 * {@code packed} is {@code [N, K / block, block / 2]} bytes, two values a byte along K, the even k in the low nibble and
 * the odd k in the high one; {@code scales} is {@code [N, K / block]}; {@code zeroPoints}, when present, is
 * {@code [N, ceil((K / block) / 2)]} bytes packed the same way (block 2j low, 2j+1 high); absent, every zero point is 8.
 * A weight reads back as {@code (q - zero point) * scale}.
 *
 * <p>Symmetric blocks (no zero points) map the block's value of largest magnitude to exactly -8 and the rest linearly,
 * the opposite sign up to 7; asymmetric ones spread the block's range (widened to hold 0) over 0..15.
 */
public record Int4Weights(int k, int n, int block, byte[] packed, float[] scales, byte[] zeroPoints) {

    public Int4Weights {
        if (block < 16 || Integer.bitCount(block) != 1 || k % block != 0) {
            throw new IllegalArgumentException("block " + block + " must be a power of 2 from 16 dividing K " + k);
        }
    }

    /** The largest block of 32 or 16 (onnxruntime-genai's default is 32) that divides {@code k}; 0 when neither does. */
    public static int blockFor(int k) {
        return k % 32 == 0 ? 32 : k % 16 == 0 ? 16 : 0;
    }

    /**
     * @param w         row-major {@code [k, n]}: {@code w[i * n + j]} multiplies input feature i into output j
     * @param symmetric no zero points (each block centred on 0), else a zero point per block
     */
    public static Int4Weights quantize(float[] w, int k, int n, int block, boolean symmetric) {
        if (w.length != (long) k * n) {
            throw new IllegalArgumentException(w.length + " weights for [" + k + ", " + n + "]");
        }
        int blocks = k / block;
        byte[] packed = new byte[n * k / 2];
        float[] scales = new float[n * blocks];
        byte[] zeros = symmetric ? null : new byte[n * ((blocks + 1) / 2)];
        for (int j = 0; j < n; j++) {
            for (int b = 0; b < blocks; b++) {
                float min = 0;
                float max = 0;
                float extreme = 0; // the value of largest magnitude, with its sign
                for (int i = b * block; i < (b + 1) * block; i++) {
                    float v = w[i * n + j];
                    min = Math.min(min, v);
                    max = Math.max(max, v);
                    if (Math.abs(v) > Math.abs(extreme)) {
                        extreme = v;
                    }
                }
                float scale;
                int zero;
                if (symmetric) {
                    scale = extreme / -8f;
                    zero = 8;
                } else {
                    scale = (max - min) / 15f;
                    zero = scale == 0 ? 8 : Math.max(0, Math.min(15, Math.round(-min / scale)));
                    setNibble(zeros, j * ((blocks + 1) / 2), b, zero);
                }
                scales[j * blocks + b] = scale;
                float inverse = scale == 0 ? 0 : 1 / scale;
                for (int i = b * block; i < (b + 1) * block; i++) {
                    int q = Math.max(0, Math.min(15, Math.round(w[i * n + j] * inverse) + zero));
                    setNibble(packed, j * (k / 2), i, q);
                }
            }
        }
        return new Int4Weights(k, n, block, packed, scales, zeros);
    }

    public int blocks() {
        return k / block;
    }

    /** The weights as they read back, row-major {@code [k, n]}. */
    public float[] dequantize() {
        float[] w = new float[k * n];
        int blocks = blocks();
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < k; i++) {
                int b = i / block;
                int zero = zeroPoints == null ? 8 : nibble(zeroPoints, j * ((blocks + 1) / 2), b);
                w[i * n + j] = (nibble(packed, j * (k / 2), i) - zero) * scales[j * blocks + b];
            }
        }
        return w;
    }

    private static void setNibble(byte[] bytes, int rowStart, int index, int value) {
        int at = rowStart + index / 2;
        int shift = (index & 1) * 4;
        bytes[at] = (byte) ((bytes[at] & ~(0xF << shift)) | (value << shift));
    }

    private static int nibble(byte[] bytes, int rowStart, int index) {
        return (bytes[rowStart + index / 2] >> ((index & 1) * 4)) & 0xF;
    }
}

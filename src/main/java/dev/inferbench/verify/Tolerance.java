package dev.inferbench.verify;

import java.util.Locale;

/**
 * numpy.testing.assert_allclose, as the ONNX backend tests use it: |actual - expected| <= atol + rtol x |expected|
 * for every element, defaults rtol 1e-3 and atol 1e-7.
 */
public record Tolerance(double rtol, double atol) {
    public static final Tolerance ONNX_BACKEND = new Tolerance(1e-3, 1e-7);
    /**
     * Across engines (libtorch against ORT), float rounding of deep networks reaches a few 1e-6 of the outputs' scale
     * (BERT-base: 2e-6 on hidden states up to ~4), which an atol of 1e-7 flags on every value near zero: there atol
     * grows to this share of the largest expected magnitude.
     */
    public static final double ENGINE_ATOL_SHARE = 1e-5;

    /** This tolerance with atol raised to {@link #ENGINE_ATOL_SHARE} of {@code expected}'s largest magnitude. */
    public Tolerance acrossEngines(float[] expected) {
        double max = 0;
        for (float v : expected) {
            max = Math.max(max, Math.abs(v));
        }
        return new Tolerance(rtol, Math.max(atol, ENGINE_ATOL_SHARE * max));
    }

    /** Null when within tolerance, else where and by how much it is not. */
    public String mismatch(float[] expected, float[] actual, String what) {
        if (expected.length != actual.length) {
            return what + ": " + actual.length + " values, expected " + expected.length;
        }
        int bad = 0;
        int worst = -1;
        double worstExcess = 0;
        for (int i = 0; i < expected.length; i++) {
            double diff = Math.abs((double) actual[i] - expected[i]);
            double allowed = atol + rtol * Math.abs(expected[i]);
            if (!(diff <= allowed)) {
                bad++;
                double excess = Double.isNaN(diff) ? Double.POSITIVE_INFINITY : diff - allowed;
                if (worst < 0 || excess > worstExcess) {
                    worst = i;
                    worstExcess = excess;
                }
            }
        }
        if (bad == 0) {
            return null;
        }
        return String.format(Locale.ROOT, "%s: %d of %d values off (worst at %d: %g vs %g; rtol %g, atol %g)",
                what, bad, expected.length, worst, actual[worst], expected[worst], rtol, atol);
    }
}

package dev.inferbench.variant;

import dev.inferbench.BenchException;
import dev.inferbench.EnumLookup;
import dev.inferbench.engine.DecoderLayout;

import java.util.Arrays;
import java.util.List;

import java.util.Locale;

/**
 * The numeric precision a model runs in, by the name used in {@code -p precision=}; fp32 is the reference. int4 is
 * weight-only and for decoders ({@link Int4Transform}). bf16 is not offered: ONNX Runtime's CPU provider would not run
 * a bf16 variant.
 */
public enum Precision {
    FP32, FP16, INT8, INT4;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Precision parse(String id) throws BenchException {
        if (id.equals("bf16") || id.equals("bfloat16")) {
            throw new BenchException("precision '" + id + "' is not offered: " + DecoderLayout.NO_BFLOAT16
                    + ", so a bf16 variant would not run; expected one of: " + String.join(", ", ids()));
        }
        return EnumLookup.parse(values(), Precision::id, "precision", id);
    }

    private static List<String> ids() {
        return Arrays.stream(values()).map(Precision::id).toList();
    }
}

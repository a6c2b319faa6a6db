package dev.inferbench.variant;

import dev.inferbench.BenchException;
import dev.inferbench.EnumLookup;

import java.util.Locale;

/** The numeric precision a model runs in, by the name used in {@code -p precision=}; fp32 is the reference. */
public enum Precision {
    FP32, FP16, INT8;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Precision parse(String id) throws BenchException {
        return EnumLookup.parse(values(), Precision::id, "precision", id);
    }
}

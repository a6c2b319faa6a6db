package dev.inferbench;

import java.util.Locale;

/**
 * The one unit convention for amounts of memory: binary units, labelled as such. Every memory figure inferbench
 * writes is in MiB (2^20 bytes): the resident set, native memory, the heap and the model file alike; JMH's own
 * {@code gc.alloc.rate}, labelled "MB/sec" by JMH but computed as bytes / 1024 / 1024, reads as MiB/s. Decimal units
 * (kB, MB, GB) are accepted where a user writes a figure (a threshold) and converted.
 */
public final class ByteUnits {
    public static final String MIB = "MiB";

    private ByteUnits() {
    }

    /** {@code bytes} in MiB, the unit of every memory figure. */
    public static double mib(double bytes) {
        return bytes / (1024 * 1024);
    }

    /** For a reader: MiB with {@code mibDecimals} decimals from 1 MiB on, KiB with one below. */
    public static String size(long bytes, int mibDecimals) {
        return bytes >= 1 << 20 ? String.format(Locale.ROOT, "%." + mibDecimals + "f MiB", mib(bytes))
                : String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0);
    }

    /** Bytes in one {@code unit} (B, kB, KiB, MB, MiB, GB, GiB, case-insensitive); NaN for anything else. */
    public static double bytes(String unit) {
        return switch (unit.toLowerCase(Locale.ROOT)) {
            case "b" -> 1;
            case "kb" -> 1e3;
            case "kib" -> 1024;
            case "mb" -> 1e6;
            case "mib" -> 1024 * 1024;
            case "gb" -> 1e9;
            case "gib" -> 1024.0 * 1024 * 1024;
            default -> Double.NaN;
        };
    }
}

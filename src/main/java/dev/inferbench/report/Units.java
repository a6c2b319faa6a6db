package dev.inferbench.report;

import java.math.MathContext;
import java.math.RoundingMode;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Time units for a group of rows (chosen by {@link DisplayUnit}'s rule), conversion, and the one number format of
 * every report: locale-independent, about four significant digits.
 */
public final class Units {
    private static final Map<String, Double> SECONDS = Map.of("ns", 1e-9, "us", 1e-6, "µs", 1e-6, "ms", 1e-3,
            "s", 1.0, "min", 60.0);

    private Units() {
    }

    /**
     * The display unit for times in rows, by {@link DisplayUnit}'s rule over their means; a rate unit (ops/s) stays
     * as it is.
     */
    static String choose(List<ReportRow> rows) {
        List<Double> secs = rows.stream().filter(ReportRow::isTime).map(r -> r.mean() * seconds(r.unit()))
                .filter(d -> !Double.isNaN(d)).toList();
        if (secs.isEmpty()) {
            return rows.isEmpty() ? "" : rows.get(0).unit();
        }
        return DisplayUnit.label(secs);
    }

    /** v in {@code from} ("ms/op" or "ms") expressed in {@code to} ("µs"); unchanged where either is not a time. */
    public static double convert(double v, String from, String to) {
        double f = seconds(from);
        double t = seconds(to);
        return Double.isNaN(f) || Double.isNaN(t) ? v : v * f / t;
    }

    /** Seconds in one of a time unit ("ms", "us/op", "µs"); NaN for a unit that is not a time. */
    public static double seconds(String unit) {
        String u = unit.endsWith("/op") ? unit.substring(0, unit.length() - 3) : unit;
        Double s = SECONDS.get(u);
        return s == null ? Double.NaN : s;
    }

    static String format(double v) {
        if (Double.isNaN(v)) {
            return "";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        double a = Math.abs(v);
        int decimals = a >= 1000 ? 0 : a >= 100 ? 1 : a >= 10 ? 2 : a >= 0.01 || a == 0 ? 3 : -1;
        if (decimals < 0) {
            return String.format(Locale.ROOT, "%.3g", v);
        }
        // what %.Nf prints (half-up on the shortest decimal digits of the double, sign kept even when it rounds to
        // zero), without the Formatter: a report formats ~10 numbers per cell, and String.format was a fifth of a
        // 10,000-cell report's time
        String plain = BigDecimal.valueOf(v).setScale(decimals, RoundingMode.HALF_UP).toPlainString();
        boolean negative = v < 0 || v == 0 && 1 / v < 0;
        return negative && !plain.startsWith("-") ? "-" + plain : plain;
    }

    /**
     * {@code v} to {@code digits} significant digits, its whole part never rounded away (78363 stays 78363) and
     * trailing zeros kept (1.500), so that figures set side by side read alike; below 0.0001 in scientific notation.
     */
    static String significant(double v, int digits) {
        if (!Double.isFinite(v) || v == 0) {
            return v == 0 ? "0" : format(v);
        }
        if (Math.abs(v) < 1e-4) {
            return String.format(Locale.ROOT, "%." + (digits - 1) + "e", v);
        }
        BigDecimal rounded = BigDecimal.valueOf(v).round(new MathContext(digits, RoundingMode.HALF_UP));
        int whole = rounded.precision() - rounded.scale();
        return BigDecimal.valueOf(v).setScale(Math.max(0, digits - whole), RoundingMode.HALF_UP).toPlainString();
    }
}

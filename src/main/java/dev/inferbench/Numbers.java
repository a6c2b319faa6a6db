package dev.inferbench;

import org.openjdk.jmh.runner.options.TimeValue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The numbers a user writes (a flag's value, a cell parameter) read by one rule each, and the percentages every
 * output prints. Each refusal is one line: what was given, under which name, and what was expected.
 */
public final class Numbers {
    private Numbers() {
    }

    /**
     * {@code text} as a whole number of {@code least} or more.
     *
     * @param what     the name the user gave it under: a flag ({@code --max-forks}) or a parameter ({@code batchSize})
     * @param expected what it should have been, for the refusal's line ("tokens per sample")
     */
    public static int wholeAtLeast(String text, int least, String what, String expected) throws BenchException {
        try {
            int n = Integer.parseInt(text.trim());
            if (n >= least) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new BenchException(what + " '" + text + "' is not a whole number >= " + least + "; expected " + expected);
    }

    /** A positive duration as JMH writes one ({@code 500ms}, {@code 90s}, {@code 20m}), and {@code 1h} for an hour. */
    public static Duration duration(String text, String what) throws BenchException {
        try {
            String s = text.trim().matches("\\d+h") ? text.trim() + "r" : text.trim(); // JMH spells hours "hr"
            TimeValue t = TimeValue.fromString(s);
            Duration d = Duration.ofNanos(t.convertTo(TimeUnit.NANOSECONDS));
            if (!d.isZero() && !d.isNegative()) {
                return d;
            }
        } catch (IllegalArgumentException ignored) {
            // reported below
        }
        throw new BenchException(what + " '" + text + "' is not a duration; expected e.g. 90s, 10m, 1h");
    }

    /** {@code 3%} or {@code 3}, both three percent, as the fraction 0.03 (a bare 0.5 is half a percent, not half). */
    public static double percent(String text, String what) throws BenchException {
        String s = text.trim().toLowerCase(Locale.ROOT);
        try {
            double p = Double.parseDouble(s.endsWith("%") ? s.substring(0, s.length() - 1) : s) / 100;
            if (p > 0 && p < 1) {
                return p;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new BenchException(what + " '" + text + "' is not a percentage between 0 and 100; expected e.g. 2%");
    }

    /** {@code text} as a number; NaN where it is absent or is not one, for a caller that refuses NaN itself. */
    public static double orNaN(String text) {
        try {
            return text == null ? Double.NaN : Double.parseDouble(text);
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    /** {@code v} as a user would write it: 5 as "5", 2.5 as "2.5". */
    public static String plain(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    /**
     * A fraction as the percentage a user would write back: 0.9975 as "99.75", 0.03 as "3", 0.999 as "99.9" (six
     * significant digits, so that the binary noise of {@code 0.999 * 100} does not show), without the sign.
     */
    public static String percentText(double fraction) {
        return BigDecimal.valueOf(fraction * 100).round(new MathContext(6)).stripTrailingZeros().toPlainString();
    }
}

package dev.inferbench.report;

import dev.inferbench.compare.Comparison;
import dev.inferbench.stats.Interval;

import java.util.Locale;

/**
 * The figures of one compare row as the table and the page print them: both sides in the one unit that fits them
 * ({@link DisplayUnit}), each with the half-width of its interval in that unit (one ± style for every row, a signed
 * figure around 0 included), with as many significant digits as it takes for two different values not to print alike,
 * and the ratio with its interval or, where there is none, the reason in words.
 *
 * @param unit      the row's unit as shown ("µs/op" for a figure JMH gives in ms/op)
 * @param baseline  the baseline's figure with its ±
 * @param candidate the candidate's
 */
record CompareFigures(String unit, String baseline, String candidate) {
    /** The fewest significant digits a figure is given with. */
    private static final int DIGITS = 4;
    /** Past this many, two figures that still print alike differ by rounding noise only. */
    private static final int MOST_DIGITS = 12;
    /** Digits of a half-width: it is itself an estimate, good to a few percent at best. */
    private static final int HALF_WIDTH_DIGITS = 3;

    static CompareFigures of(Comparison r) {
        Interval b = r.baseline();
        Interval c = r.candidate();
        DisplayUnit u = DisplayUnit.ofFigure(r.unit(), b.estimate(), c.estimate());
        double bv = u.convert(b.estimate());
        double cv = u.convert(c.estimate());
        int digits = DIGITS;
        while (digits < MOST_DIGITS && bv != cv && figure(bv, digits).equals(figure(cv, digits))) {
            digits++;
        }
        return new CompareFigures(u.label(), withHalfWidth(figure(bv, digits), u.convert(b.halfWidth())),
                withHalfWidth(figure(cv, digits), u.convert(c.halfWidth())));
    }

    private static String figure(double v, int digits) {
        return Double.isNaN(v) ? "n/a" : Units.significant(v, digits);
    }

    /** "14.25 ±7.71"; a side of one fork has no interval, and says so. */
    private static String withHalfWidth(String figure, double halfWidth) {
        return figure + " ±" + (Double.isNaN(halfWidth) ? "n/a" : Units.significant(halfWidth, HALF_WIDTH_DIGITS));
    }

    /** The relative change; n/a where a side is not above 0 (no ratio of a signed figure means anything). */
    static String change(Comparison r) {
        if (!(r.baseline().estimate() > 0 && r.candidate().estimate() > 0)) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "%+.1f%%", (r.ratio().estimate() - 1) * 100);
    }

    /** "1.100 [1.064, 1.138]", or the ratio (where there is one) and why it has no interval. */
    static String ratio(Comparison r) {
        Interval i = r.ratio();
        if (i.known()) {
            return String.format(Locale.ROOT, "%.3f [%.3f, %.3f]", i.estimate(), i.lower(), i.upper());
        }
        String sign = sign(r.baseline().estimate(), r.candidate().estimate());
        return sign != null ? "n/a: " + sign : String.format(Locale.ROOT, "%.3f [%s]", i.estimate(), noInterval(r));
    }

    /** Why a row's ratio has no interval: "n/a: 1 fork, needs 2", "n/a: 0 on both sides", ... */
    static String noInterval(Comparison r) {
        String sign = sign(r.baseline().estimate(), r.candidate().estimate());
        if (sign != null) {
            return "n/a: " + sign;
        }
        if (CompareTable.tooFewForks(r)) {
            int fewest = Math.min(r.baseline().forks(), r.candidate().forks());
            return "n/a: " + fewest + " fork" + (fewest == 1 ? "" : "s") + ", needs " + CompareTable.FORKS_NEEDED;
        }
        // both means above 0 and forks enough: some fork's own figure is 0, negative or missing
        return "n/a: a fork's figure is not above 0";
    }

    /** What makes a ratio of the two means meaningless ("0 in the baseline"), or null where both are above 0. */
    private static String sign(double b, double c) {
        if (b > 0 && c > 0) {
            return null;
        }
        if (Double.isNaN(b) || Double.isNaN(c)) {
            return Double.isNaN(b) && Double.isNaN(c) ? "no figure on either side" : "no figure in the " + (
                    Double.isNaN(b) ? "baseline" : "candidate");
        }
        String side = b > 0 ? "candidate" : c > 0 ? "baseline" : "both sides";
        double worst = b > 0 ? c : c > 0 ? b : Math.min(b, c);
        String what = worst < 0 ? "below 0" : "0";
        return side.equals("both sides") ? what + " on both sides" : what + " in the " + side;
    }
}

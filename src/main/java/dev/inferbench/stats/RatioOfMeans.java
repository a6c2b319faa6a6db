package dev.inferbench.stats;

/**
 * The ratio of two means measured on the same pairs, {@code mean(numerator) / mean(denominator)}, with Fieller's
 * interval: for a share of a change, such as the part of a call's change in ms that some operators explain, where
 * both the part and the whole are per-pair differences with noise of their own, and correlated (the part is in the
 * whole). The interval is the set of ratios {@code r} for which {@code mean(numerator) - r * mean(denominator)} is
 * within the t interval of 0 over the pairs; it is bounded only when the denominator's own interval excludes 0. Where
 * it does not, no ratio is ruled out and the bounds are NaN ({@link Interval#known()} false).
 */
public final class RatioOfMeans {
    private RatioOfMeans() {
    }

    /** @param numerator per pair; @param denominator per pair, in the same order */
    public static Interval fieller(double[] numerator, double[] denominator, double confidence) {
        if (numerator.length != denominator.length) {
            throw new IllegalArgumentException("paired values differ in length: " + numerator.length + " vs "
                    + denominator.length);
        }
        int k = numerator.length;
        double a = ForkMeans.mean(numerator);
        double c = ForkMeans.mean(denominator);
        double estimate = a / c;
        if (k < 2 || !Double.isFinite(estimate)) {
            return Interval.unknown(estimate, confidence, k);
        }
        double vaa = ForkMeans.variance(numerator) / k;
        double vcc = ForkMeans.variance(denominator) / k;
        double vac = 0;
        for (int i = 0; i < k; i++) {
            vac += (numerator[i] - a) * (denominator[i] - c);
        }
        vac /= (double) (k - 1) * k;
        double t2 = Math.pow(ForkMeans.tQuantile(k - 1, confidence), 2);
        // (a - r c)^2 <= t^2 (vaa - 2 r vac + r^2 vcc), a quadratic in r: q r^2 - 2 p r + s <= 0
        double q = c * c - t2 * vcc;
        if (q <= 0) { // the denominator's interval holds 0: the set is unbounded
            return Interval.unknown(estimate, confidence, k);
        }
        double p = a * c - t2 * vac;
        double s = a * a - t2 * vaa;
        double root = Math.sqrt(Math.max(0, p * p - q * s));
        return new Interval(estimate, (p - root) / q, (p + root) / q, confidence, k);
    }
}

package dev.inferbench.stats;

/**
 * A straight line {@code y = intercept + slope x} through points by least squares: memory per sample over batch
 * sizes, a resident set's growth over calls.
 *
 * <p>The slope's interval, where each point is itself an estimate with an interval (a cell's mean over forks): the
 * slope is a weighted sum of the points, {@code sum((x_i - mean x) / Sxx * y_i)}, so its standard error is
 * {@code sqrt(sum(((x_i - mean x) / Sxx)^2 se_i^2))} from the points' own standard errors (forks as the unit), and
 * the interval takes Student's t with the fewest forks behind a point less one as its degrees of freedom (the
 * conservative choice: the Welch-Satterthwaite figure is never smaller). This needs no third point: two batch sizes
 * measured over 16 forks each give the slope an interval, which the scatter of two points about their own line
 * (always zero) could not. It says how well the points are known, not whether a line fits them: that is read from
 * the points' distance to the line.
 */
public record LineFit(double slope, double intercept) {

    /** The least-squares line; slope NaN with fewer than two distinct x. */
    public static LineFit of(double[] x, double[] y) {
        double mx = ForkMeans.mean(x);
        double my = ForkMeans.mean(y);
        double sxx = 0;
        double sxy = 0;
        for (int i = 0; i < x.length; i++) {
            sxx += (x[i] - mx) * (x[i] - mx);
            sxy += (x[i] - mx) * (y[i] - my);
        }
        double slope = sxx > 0 ? sxy / sxx : Double.NaN;
        return new LineFit(slope, my - slope * mx);
    }

    public double at(double x) {
        return intercept + slope * x;
    }

    /**
     * The slope with its interval, each point an estimate with its own interval over forks.
     *
     * @param y each point's estimate and interval (its confidence and forks give its standard error); a point whose
     *          interval is unknown (one fork) leaves the slope's interval unknown
     */
    public static Interval slope(double[] x, Interval[] y, double confidence) {
        double[] ys = new double[y.length];
        int fewest = Integer.MAX_VALUE;
        for (int i = 0; i < y.length; i++) {
            ys[i] = y[i].estimate();
            fewest = Math.min(fewest, y[i].forks());
        }
        LineFit fit = of(x, ys);
        double mx = ForkMeans.mean(x);
        double sxx = 0;
        for (double v : x) {
            sxx += (v - mx) * (v - mx);
        }
        double variance = 0;
        for (int i = 0; i < y.length; i++) {
            if (!y[i].known() || y[i].forks() < 2) {
                return Interval.unknown(fit.slope(), confidence, fewest);
            }
            double se = y[i].halfWidth() / ForkMeans.tQuantile(y[i].forks() - 1, y[i].confidence());
            double w = (x[i] - mx) / sxx;
            variance += w * w * se * se;
        }
        if (Double.isNaN(fit.slope())) {
            return Interval.unknown(fit.slope(), confidence, fewest);
        }
        double half = ForkMeans.tQuantile(fewest - 1, confidence) * Math.sqrt(variance);
        return new Interval(fit.slope(), fit.slope() - half, fit.slope() + half, confidence, fewest);
    }
}

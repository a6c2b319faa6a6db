package dev.inferbench.metrics;

/**
 * The resident set read at times within one measured iteration: {@code nanos} from System.nanoTime(), {@code mib} in
 * MiB, in time order. Empty where /proc could not be read.
 */
record RssSeries(long[] nanos, double[] mib) {

    boolean isEmpty() {
        return nanos.length == 0;
    }

    /**
     * The time average (trapezoids between the readings; the one reading where there is only one): what the process
     * held over the iteration, which an end-of-iteration reading is not (the last iteration of a fork ends after
     * the trial's teardown has freed the model).
     */
    double timeAverage() {
        int n = nanos.length;
        if (n == 0) {
            return Double.NaN;
        }
        double span = nanos[n - 1] - nanos[0];
        if (n == 1 || span <= 0) {
            double s = 0;
            for (double v : mib) {
                s += v;
            }
            return s / n;
        }
        double area = 0;
        for (int i = 1; i < n; i++) {
            area += (mib[i] + mib[i - 1]) / 2 * (nanos[i] - nanos[i - 1]);
        }
        return area / span;
    }
}

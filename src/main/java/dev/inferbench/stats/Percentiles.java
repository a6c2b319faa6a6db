package dev.inferbench.stats;

import dev.inferbench.BenchException;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A percentile (p50, p99 ...) of a cell's timed calls, all forks pooled, nearest rank. Its uncertainty is not this
 * class's business: {@code compare} takes each fork's percentile as one value and bounds those with the fork-mean
 * and ratio intervals, forks as the unit (a bootstrap over 2-5 forks has only a handful of distinct resamples, so its
 * ratio interval flags far more A/A comparisons than its confidence says: docs/statistics.md, ComparerTest).
 */
public final class Percentiles {
    private record Bin(double value, long count) {
    }

    private final List<Bin> bins = new ArrayList<>();

    /** @param histograms per fork, its calls as {@code [value, count]} pairs (JMH's rawDataHistogram, merged) */
    public Percentiles(List<double[][]> histograms) {
        for (double[][] fork : histograms) {
            for (double[] pair : fork) {
                bins.add(new Bin(pair[0], (long) pair[1]));
            }
        }
        bins.sort(Comparator.comparingDouble(Bin::value));
    }

    /**
     * The calls a percentile needs behind it to be more than the extreme of a few calls: {@code 10 / (1 - p)}, so
     * 20 for p50, 100 for p90, 1,000 for p99 (from fewer, p99 is the largest call or close to it). The one rule for
     * every output that gives a percentile: cells' calls, compare's forks, serving steps' requests.
     */
    public static long callsFor(double p) {
        return p >= 100 ? 1 : Math.round(10 / (1 - p / 100));
    }

    /**
     * The percentile {@code p} of sorted values, nearest rank; NaN where fewer values lie behind it than
     * {@link #callsFor} asks (a p99 of 40 requests would be their largest).
     */
    public static double nearestRank(double[] sorted, double p) {
        return sorted.length < callsFor(p) ? Double.NaN : atRank(sorted, p);
    }

    /**
     * The value at the nearest rank of percentile {@code p} among sorted values, however few (a serving step's own
     * figures, which carry their request count beside them); NaN without values. {@code atRank(sorted, 50)} is the
     * lower median.
     */
    public static double atRank(double[] sorted, double p) {
        return sorted.length == 0 ? Double.NaN : sorted[rank(sorted.length, p) - 1];
    }

    /** {@link #atRank(double[], double)} of sorted whole numbers (latencies in ns); NaN without values. */
    public static double atRank(long[] sorted, double p) {
        return sorted.length == 0 ? Double.NaN : sorted[rank(sorted.length, p) - 1];
    }

    /**
     * The median of a few readings in any order (the mean of the middle two of an even count); NaN without any. The
     * one median of the machine check, fork wall times and rounds of a calibration; {@code values} is not changed.
     */
    public static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return interpolated(sorted, 0.5);
    }

    /**
     * The nearest rank of percentile {@code p} (0 < p <= 100) among {@code n} sorted values (n > 0): the
     * {@code ceil(p / 100 * n)}-th, 1-based, at least the first and at most the last. The one percentile rule of every
     * output: calls, requests, token gaps.
     */
    public static int rank(int n, double p) {
        return (int) rank((long) n, p);
    }

    /** {@link #rank(int, double)} for a count of calls that may pass an int. */
    public static long rank(long n, double p) {
        return Math.min(n, Math.max(1, (long) Math.ceil(p / 100 * n)));
    }

    /**
     * The quantile {@code q} (0 to 1) of a few sorted readings, by linear interpolation between order statistics
     * (the median of an even count is the mean of the middle two); NaN when there are none. For the machine check's
     * medians and spread over a run's forks, where each reading is a fork and nearest rank would jump between forks.
     */
    public static double interpolated(double[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        double pos = q * (sorted.length - 1);
        int lo = (int) Math.floor(pos);
        int hi = Math.min(lo + 1, sorted.length - 1);
        return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
    }

    /** The fastest call; NaN without calls. */
    public double min() {
        return bins.stream().filter(b -> b.count > 0).mapToDouble(Bin::value).findFirst().orElse(Double.NaN);
    }

    /** The standard deviation of the calls (n - 1 in the denominator); NaN with fewer than two calls. */
    public double standardDeviation() {
        double n = 0;
        double sum = 0;
        for (Bin b : bins) {
            n += b.count;
            sum += b.value * b.count;
        }
        if (n < 2) {
            return Double.NaN;
        }
        double mean = sum / n;
        double squares = 0;
        for (Bin b : bins) {
            squares += b.count * (b.value - mean) * (b.value - mean);
        }
        return Math.sqrt(squares / (n - 1));
    }

    /**
     * Percentiles as a user lists them ({@code 50,90,99.9}): each above 0 and below 100, in the order given, without
     * repeats.
     */
    public static double[] parseList(String text) throws BenchException {
        String[] parts = text.split(",", -1);
        double[] out = new double[parts.length];
        for (int i = 0; i < parts.length; i++) {
            String s = parts[i].strip();
            double p;
            try {
                p = Double.parseDouble(s);
            } catch (NumberFormatException e) {
                p = Double.NaN;
            }
            if (!s.matches("\\d+(\\.\\d+)?") || !(p > 0 && p < 100)) {
                throw new BenchException("--percentiles '" + text + "': '" + s + "' is not a percentile; expected "
                        + "numbers above 0 and below 100, separated by commas, e.g. 50,90,99.9");
            }
            for (int j = 0; j < i; j++) {
                if (out[j] == p) {
                    throw new BenchException("--percentiles '" + text + "' names " + s + " twice; expected each once");
                }
            }
            out[i] = p;
        }
        return out;
    }

    /** The list as {@link #parseList} reads it: {@code 50,90,99.9}. */
    public static String listText(double[] percentiles) {
        return Arrays.stream(percentiles).mapToObj(p -> label(p).substring(1)).collect(Collectors.joining(","));
    }

    /** p50, p99.9: a percentile's name in every output and in the metric catalogue. */
    public static String label(double p) {
        return "p" + (p == Math.rint(p) ? Long.toString((long) p) : BigDecimal.valueOf(p).stripTrailingZeros().toPlainString());
    }

    /** The percentile (0 < p < 100) of all calls of all forks, nearest rank; NaN without calls. */
    public double estimate(double p) {
        long total = 0;
        for (Bin b : bins) {
            total += b.count;
        }
        if (total == 0) {
            return Double.NaN;
        }
        long rank = rank(total, p);
        long seen = 0;
        for (Bin b : bins) {
            seen += b.count;
            if (seen >= rank) {
                return b.value;
            }
        }
        return bins.get(bins.size() - 1).value;
    }
}

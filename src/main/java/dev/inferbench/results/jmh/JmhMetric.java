package dev.inferbench.results.jmh;

import dev.inferbench.stats.Percentiles;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One metric of a cell as JMH writes it: the score with its error and confidence bounds, percentiles where JMH
 * computed them, and the raw data per fork and iteration. Values JMH could not compute are NaN.
 *
 * @param rawData      per fork, per iteration: the iteration's score (all modes but SampleTime)
 * @param histograms   per fork, per iteration: the bins of every timed call (SampleTime only), flat as
 *                     {@code value0, count0, value1, count1, ...} (a 10,000-cell file holds over a million bins, and
 *                     one small array per bin was a third of what reading it cost)
 */
public record JmhMetric(double score, double scoreError, double[] scoreConfidence, SortedMap<Double, Double> percentiles,
                        String unit, List<List<Double>> rawData, List<List<double[]>> histograms) {

    /** Per fork, per iteration means: rawData as is, or each SampleTime histogram's weighted mean. */
    public double[][] iterationMeans() {
        if (!rawData.isEmpty()) {
            return rawData.stream().map(f -> f.stream().mapToDouble(Double::doubleValue).toArray()).toArray(double[][]::new);
        }
        return histograms.stream().map(fork -> fork.stream().mapToDouble(JmhMetric::mean).toArray())
                .toArray(double[][]::new);
    }

    /**
     * The metric as if only the forks {@code keep} marks had run: their raw data, the score combined from their
     * iterations as JMH combined them for all forks (the mean, or the sum, largest or smallest where the score is
     * that), the percentiles JMH gave computed again from the kept calls; the error, which no output reads, NaN.
     * Forks past the end of {@code keep} are kept.
     */
    public JmhMetric onlyForks(boolean[] keep) {
        List<List<Double>> raw = new ArrayList<>();
        for (int f = 0; f < rawData.size(); f++) {
            if (f >= keep.length || keep[f]) {
                raw.add(rawData.get(f));
            }
        }
        List<List<double[]>> hist = new ArrayList<>();
        for (int f = 0; f < histograms.size(); f++) {
            if (f >= keep.length || keep[f]) {
                hist.add(histograms.get(f));
            }
        }
        JmhMetric kept = new JmhMetric(Double.NaN, Double.NaN, new double[]{Double.NaN, Double.NaN}, new TreeMap<>(),
                unit, raw, hist);
        SortedMap<Double, Double> again = new TreeMap<>();
        if (!percentiles.isEmpty() && kept.sampleCount() > 0) {
            Percentiles calls = kept.calls();
            percentiles.keySet().forEach(p -> again.put(p, calls.estimate(p)));
        }
        return new JmhMetric(kept.combined(this), Double.NaN, new double[]{Double.NaN, Double.NaN}, again, unit, raw,
                hist);
    }

    /** This metric's iterations combined into one score the way {@code all}'s score combines all of its own. */
    private double combined(JmhMetric all) {
        if (rawData.isEmpty()) {
            double sum = 0;
            double n = 0;
            for (List<double[]> fork : histograms) {
                for (double[] bins : fork) {
                    for (int i = 0; i + 1 < bins.length; i += 2) {
                        sum += bins[i] * bins[i + 1];
                        n += bins[i + 1];
                    }
                }
            }
            return n == 0 ? Double.NaN : sum / n;
        }
        double[] allValues = Arrays.stream(all.iterationMeans()).flatMapToDouble(Arrays::stream).toArray();
        double[] values = Arrays.stream(iterationMeans()).flatMapToDouble(Arrays::stream).toArray();
        if (values.length == 0) {
            return Double.NaN;
        }
        double sum = Arrays.stream(values).sum();
        if (close(all.score, Arrays.stream(allValues).sum()) && !close(all.score, Arrays.stream(allValues).average()
                .orElse(Double.NaN))) {
            return sum;
        }
        if (close(all.score, Arrays.stream(allValues).max().orElse(Double.NaN)) && allValues.length > 1
                && !close(all.score, Arrays.stream(allValues).average().orElse(Double.NaN))) {
            return Arrays.stream(values).max().orElseThrow();
        }
        if (close(all.score, Arrays.stream(allValues).min().orElse(Double.NaN)) && allValues.length > 1
                && !close(all.score, Arrays.stream(allValues).average().orElse(Double.NaN))) {
            return Arrays.stream(values).min().orElseThrow();
        }
        return sum / values.length;
    }

    private static boolean close(double a, double b) {
        return Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
    }

    /** The forks JMH recorded data for. */
    public int forkCount() {
        return Math.max(rawData.size(), histograms.size());
    }

    private static double mean(double[] bins) {
        double sum = 0;
        double n = 0;
        for (int i = 0; i + 1 < bins.length; i += 2) {
            sum += bins[i] * bins[i + 1];
            n += bins[i + 1];
        }
        return n == 0 ? Double.NaN : sum / n;
    }

    /** The timed calls behind the metric: the histograms' counts (a missing count is none), or else one per iteration score. */
    public long sampleCount() {
        if (histograms.isEmpty()) {
            return rawData.stream().mapToLong(List::size).sum();
        }
        double n = 0;
        for (List<double[]> fork : histograms) {
            for (double[] bins : fork) {
                for (int i = 1; i < bins.length; i += 2) {
                    n += Double.isNaN(bins[i]) ? 0 : bins[i]; // a bin without a count holds no calls
                }
            }
        }
        return (long) n;
    }

    /** One fork's bins of all its iterations as {@code [value, count]} pairs, as {@code Percentiles} takes them. */
    public double[][] forkBins(int fork) {
        List<double[]> iterations = histograms.get(fork);
        int n = 0;
        for (double[] bins : iterations) {
            n += bins.length / 2;
        }
        double[][] pairs = new double[n][];
        int k = 0;
        for (double[] bins : iterations) {
            for (int i = 0; i + 1 < bins.length; i += 2) {
                pairs[k++] = new double[]{bins[i], bins[i + 1]};
            }
        }
        return pairs;
    }

    /**
     * The percentile every output shows: JMH's, over all timed calls of all forks, when {@link Percentiles#callsFor} calls stand
     * behind it; NaN ("n/a") when fewer do.
     */
    public double supportedPercentile(double p) {
        if (sampleCount() < Percentiles.callsFor(p)) {
            return Double.NaN;
        }
        // JMH computes a fixed set (50, 90, 95, 99, 99.9 ...); a percentile a user chose besides comes from the calls
        double jmh = percentile(p);
        return Double.isNaN(jmh) ? calls().estimate(p) : jmh;
    }

    /**
     * The timed calls, all forks pooled: the histograms' bins, or each iteration's score where there are none (a
     * SingleShotTime iteration is one call; in the other modes an iteration's score is a mean, not a call).
     */
    public Percentiles calls() {
        List<double[][]> forks = new ArrayList<>();
        if (!histograms.isEmpty()) {
            for (int f = 0; f < histograms.size(); f++) {
                forks.add(forkBins(f));
            }
        } else {
            rawData.forEach(fork -> forks.add(fork.stream().map(v -> new double[]{v, 1}).toArray(double[][]::new)));
        }
        return new Percentiles(forks);
    }

    /** A percentile as JMH computed it (keys 0.0 to 100.0); NaN when JMH gave none. */
    public double percentile(double p) {
        Double v = percentiles.get(p);
        return v == null ? Double.NaN : v;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof JmhMetric m && Double.compare(score, m.score) == 0
                && Double.compare(scoreError, m.scoreError) == 0 && Arrays.equals(scoreConfidence, m.scoreConfidence)
                && percentiles.equals(m.percentiles) && unit.equals(m.unit) && rawData.equals(m.rawData)
                && deepEquals(histograms, m.histograms);
    }

    private static boolean deepEquals(List<List<double[]>> a, List<List<double[]>> b) {
        return Arrays.deepEquals(a.stream().map(List::toArray).toArray(), b.stream().map(List::toArray).toArray());
    }

    @Override
    public int hashCode() {
        return Double.hashCode(score) * 31 + unit.hashCode();
    }

    @Override
    public String toString() {
        return score + " ± " + scoreError + " " + unit;
    }
}

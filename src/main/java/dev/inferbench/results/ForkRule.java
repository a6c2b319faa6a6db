package dev.inferbench.results;

import dev.inferbench.results.jmh.JmhMetric;
import dev.inferbench.stats.ForkMeans;

import java.util.Arrays;

/**
 * How a metric's iterations and forks combine into the one value per fork that the statistics take (forks are the
 * unit) and the one value every output shows. Each metric's rule is in {@link MetricCatalogue}.
 */
public enum ForkRule {
    /**
     * Each fork's mean of its iterations; shown as the mean over every iteration that has the figure (JMH's score when
     * every iteration has it: JMH divides a secondary figure's sum by every measured iteration, also those that did
     * not give it, such as a percentile left out of an iteration with too few requests behind it).
     */
    MEAN("mean of fork means"),
    /**
     * Each fork's last iteration only, for a figure each iteration gives over the whole fork so far (the memory
     * growth of the fork's measured calls): the last is the fork's; shown as the mean of the forks' last values.
     */
    LAST("each fork's last value"),
    /** Each fork's largest iteration; shown as the largest over iterations and forks (a peak). */
    MAX("largest of each fork"),
    /** A percentile of the timed calls: all forks' calls pooled for the figure shown, each fork's own for compare. */
    CALLS("every call, forks pooled");

    private final String text;

    ForkRule(String text) {
        this.text = text;
    }

    /** What the docs' metric table says in its forks column. */
    public String text() {
        return text;
    }

    /** Per fork, the values its iterations give under this rule (what intervals and compare take). */
    public double[][] forks(JmhMetric m) {
        double[][] iterations = m.iterationMeans();
        return switch (this) {
            case LAST -> Arrays.stream(iterations).map(f -> f.length == 0 ? f : new double[]{f[f.length - 1]})
                    .toArray(double[][]::new);
            case MAX -> Arrays.stream(iterations).map(f -> f.length == 0 ? f
                    : new double[]{Arrays.stream(f).max().orElseThrow()}).toArray(double[][]::new);
            default -> iterations;
        };
    }

    /** The one value the summary, the reports and the exports show for the metric. */
    public double value(JmhMetric m) {
        return switch (this) {
            case LAST -> ForkMeans.interval(forks(m), ForkMeans.DEFAULT_CONFIDENCE).estimate();
            case MAX -> Arrays.stream(forks(m)).flatMapToDouble(Arrays::stream).max().orElse(m.score());
            case MEAN -> meanOfPresent(m);
            default -> m.score();
        };
    }

    /** JMH's score where it is the mean of the iterations that have the figure (to the last bits), else that mean. */
    private static double meanOfPresent(JmhMetric m) {
        if (m.rawData().isEmpty()) {
            return m.score(); // SampleTime: JMH's mean over every timed call
        }
        double[] present = Arrays.stream(MEAN.forks(m)).flatMapToDouble(Arrays::stream).toArray();
        if (present.length == 0) {
            return Double.NaN;
        }
        double sum = Arrays.stream(present).sum();
        return Math.abs(m.score() * present.length - sum) <= 1e-9 * Math.abs(sum) ? m.score() : sum / present.length;
    }
}

package dev.inferbench.stats;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link StoppingRule} with known truth: a look after every fork through the width of an unpaired (Welch) ratio
 * interval, 99 % intervals, 3 % minimum effect, 3 % fork-to-fork noise, precision 2 %, at most 60 forks, and a run's
 * {@code --precision 2%} with its 95 % interval. The paired path compare-commits takes, with its two-stage
 * stop, is {@link AdaptiveGateTest}'s.
 */
class SequentialStoppingTest {
    private static final double NOISE = 0.03;
    private static final double MIN_EFFECT = 0.03;
    private static final double PRECISION = 0.02;
    private static final int MAX_PAIRS = 60;
    private static final int TRIALS = 3000;

    private static double[][] forks(List<Double> means) {
        return means.stream().map(x -> new double[]{x}).toArray(double[][]::new);
    }

    /** One adaptive A/B as compare-commits runs it: {verdict at the end, pairs run}. */
    private static Object[] adaptiveAb(Random r, double slowdown) {
        List<Double> a = new ArrayList<>();
        List<Double> b = new ArrayList<>();
        Interval ratio = null;
        while (a.size() < MAX_PAIRS) {
            a.add(100 * (1 + NOISE * r.nextGaussian()));
            b.add(100 * (1 + slowdown) * (1 + NOISE * r.nextGaussian()));
            if (a.size() >= 2) {
                ratio = Ratio.interval(forks(a), forks(b), Verdict.CONFIDENCE);
                if (StoppingRule.settled(ratio, PRECISION)) {
                    break;
                }
            }
        }
        return new Object[]{Verdict.of(ratio, Direction.LOWER_IS_BETTER, MIN_EFFECT), a.size()};
    }

    private static double rate(double slowdown, Verdict verdict, long seed) {
        Random r = new Random(seed);
        int hits = 0;
        for (int t = 0; t < TRIALS; t++) {
            hits += adaptiveAb(r, slowdown)[0] == verdict ? 1 : 0;
        }
        return hits / (double) TRIALS;
    }

    @Test
    void anAdaptiveAaComparisonIsFlaggedAtMostOnePercentOfTheTime() {
        // stopping at the first WORSE or BETTER flagged 2.2 % of these as slower (and 4.3 % either way)
        assertThat(rate(0, Verdict.WORSE, 1)).as("A/A ending 'slower'").isLessThanOrEqualTo(0.005);
        assertThat(rate(0, Verdict.BETTER, 2)).as("A/A ending 'faster'").isLessThanOrEqualTo(0.005);
    }

    @Test
    void realSlowdownsAreStillFound() {
        assertThat(rate(0.10, Verdict.WORSE, 3)).as("10 % slowdown found").isGreaterThan(0.99);
        assertThat(rate(0.05, Verdict.WORSE, 4)).as("5 % slowdown found").isGreaterThan(0.95);
    }

    /** A run's --precision: the cell's 95 % interval still covers the truth when the run stops at the first narrow one. */
    @Test
    void aRunStoppedByPrecisionKeepsItsCoverage() {
        Random r = new Random(5);
        int covered = 0;
        for (int t = 0; t < TRIALS; t++) {
            List<Double> a = new ArrayList<>();
            Interval mean = null;
            while (a.size() < 30) {
                a.add(100 * (1 + NOISE * r.nextGaussian()));
                if (a.size() >= 2) {
                    mean = ForkMeans.interval(forks(a), ForkMeans.DEFAULT_CONFIDENCE);
                    if (StoppingRule.precise(mean, PRECISION)) {
                        break;
                    }
                }
            }
            covered += mean.contains(100) ? 1 : 0;
        }
        // 0.93-0.95 from 8 forks; from 3 forks it was 0.91 (the binomial spread of 3,000 trials is about 0.005)
        assertThat(covered / (double) TRIALS).as("coverage of the nominal 95 %").isGreaterThan(0.925);
    }
}

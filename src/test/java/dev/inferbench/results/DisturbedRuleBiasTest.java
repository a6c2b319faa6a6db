package dev.inferbench.results;

import dev.inferbench.results.jmh.MeasuredCell;
import dev.inferbench.stats.ForkMeans;
import dev.inferbench.stats.Percentiles;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Why the headline's rule reads the machine record and never the fork's latency, simulated end to end through
 * {@link Headline}: runs of one cell whose fork means scatter around a known mean. A rule that drops the slowest forks
 * (by their own latency) moves the mean down even on a quiet machine; the machine rule leaves out forks whose canary
 * read slow, a choice made apart from the fork's own noise, so the mean of what it keeps stays where it was, and on a
 * disturbed machine it takes the disturbance out.
 */
class DisturbedRuleBiasTest {
    private static final int TRIALS = 1000;
    private static final int FORKS = 8;
    /** The sd of log fork means on a quiet machine (forks of one cell differ by JIT, layout, placement). */
    private static final double FORK_SPREAD = 0.08;

    /** One run: its all-forks mean, the latency rule's mean, the machine rule's mean and how many it left out. */
    private record Trial(double all, double byLatency, double byMachine, int leftOut) {
    }

    /**
     * @param canarySpread sd of the log canary on a quiet machine
     * @param disturbedShare share of forks run while something else used the machine: slower by {@code slowdown}, and
     *                       the canary with them
     */
    private static Trial trial(Random r, double canarySpread, double disturbedShare, double slowdown) {
        double[] times = new double[FORKS];
        double[] canary = new double[FORKS];
        double[] others = new double[FORKS];
        for (int f = 0; f < FORKS; f++) {
            boolean disturbed = r.nextDouble() < disturbedShare;
            double factor = disturbed ? slowdown : 1;
            times[f] = 10 * Math.exp(FORK_SPREAD * r.nextGaussian()) * factor;
            canary[f] = Math.exp(canarySpread * r.nextGaussian()) * factor;
            others[f] = Math.abs(0.02 * r.nextGaussian());
        }
        MeasuredCell cell = HeadlineTest.cell("a", times, canary, others);
        double all = Arrays.stream(times).average().orElseThrow();
        // the rule a user might write: leave out forks 10 % or more above the median fork
        double median = Percentiles.median(times.clone());
        double byLatency = Arrays.stream(times).filter(t -> t < 1.10 * median).average().orElseThrow();
        Headline h = Headline.of(List.of(cell), false, FORKS);
        double byMachine = ForkMeans.interval(h.cells().get(0).callMeans(), ForkMeans.DEFAULT_CONFIDENCE).estimate();
        return new Trial(all, byLatency, byMachine, h.leftOut());
    }

    private static List<Trial> trials(long seed, double canarySpread, double disturbedShare, double slowdown) {
        Random r = new Random(seed);
        List<Trial> out = new ArrayList<>();
        for (int i = 0; i < TRIALS; i++) {
            out.add(trial(r, canarySpread, disturbedShare, slowdown));
        }
        return out;
    }

    private static double mean(List<Trial> t, java.util.function.ToDoubleFunction<Trial> f) {
        return t.stream().mapToDouble(f).average().orElseThrow();
    }

    /** The standard error of the mean over trials of the machine rule's figure minus the all-forks figure. */
    private static double stdErrOfDifference(List<Trial> t) {
        double[] d = t.stream().mapToDouble(x -> x.byMachine() - x.all()).toArray();
        double m = Arrays.stream(d).average().orElseThrow();
        double var = Arrays.stream(d).map(x -> (x - m) * (x - m)).sum() / (d.length - 1);
        return Math.sqrt(var / d.length);
    }

    @Test
    void onAQuietMachineALatencyRuleBiasesTheMeanAndTheMachineRuleDoesNot() {
        // a canary noisy enough that the machine rule leaves forks out by chance: the test of its bias has teeth
        List<Trial> t = trials(20_261_202L, 0.12, 0, 1);
        double truth = mean(t, Trial::all);
        double latencyBias = mean(t, Trial::byLatency) / truth - 1;
        double machineBias = mean(t, Trial::byMachine) / truth - 1;
        int leftOut = t.stream().mapToInt(Trial::leftOut).sum();
        assertThat(leftOut).as("forks the machine rule left out by its false alarms")
                .isGreaterThan(TRIALS * FORKS / 40);
        assertThat(latencyBias).as("the latency rule reads low").isLessThan(-0.01);
        assertThat(Math.abs(mean(t, Trial::byMachine) - truth)).as("the machine rule, within 4 standard errors")
                .isLessThan(4 * stdErrOfDifference(t));
        assertThat(Math.abs(machineBias)).isLessThan(0.002);
    }

    @Test
    void onAQuietMachineWithASteadyCanaryTheRuleLeavesOutAlmostNothing() {
        // a canary's quiet spread of 4 %: the canary bar (+20 %) is five of its sds away
        List<Trial> t = trials(7L, 0.04, 0, 1);
        int leftOut = t.stream().mapToInt(Trial::leftOut).sum();
        assertThat(leftOut / (double) (TRIALS * FORKS)).as("the false-alarm rate per fork").isLessThan(0.001);
    }

    @Test
    void onADisturbedMachineTheMachineRuleTakesTheDisturbanceOut() {
        // one fork in eight ran 50 % slower beside another process, and its canary with it
        List<Trial> quiet = trials(11L, 0.04, 0, 1);
        List<Trial> t = trials(11L, 0.04, 0.125, 1.5);
        double quietMean = mean(quiet, Trial::all);
        assertThat(mean(t, Trial::all) / quietMean - 1).as("every fork in the figure").isGreaterThan(0.04);
        assertThat(Math.abs(mean(t, Trial::byMachine) / quietMean - 1)).as("the quiet forks' figure")
                .isLessThan(0.01);
    }
}

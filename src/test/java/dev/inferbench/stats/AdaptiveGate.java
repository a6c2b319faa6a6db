package dev.inferbench.stats;

import dev.inferbench.BenchException;
import dev.inferbench.compare.CellKey;
import dev.inferbench.compare.CellResults;
import dev.inferbench.compare.Comparer;
import dev.inferbench.compare.Comparison;
import dev.inferbench.compare.ForkStamp;
import dev.inferbench.compare.MetricSeries;
import dev.inferbench.compare.StopAnswer;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * compare-commits --precision 2% --fail-on-regression, simulated on the path it really takes: fork means of
 * a {@link NoisyMachine} become two sides' cells with the wall-clock stamps of interleaved forks (in the pair order
 * the script's coin chose), {@link Comparer} pairs them by those stamps as compare does, the stopping question is asked
 * after the pilot's last pair and then from the pair each answer named ({@link StopAnswer#nextLook}), and the compare
 * at the end gives the gate's verdict.
 *
 * @param rule       which stopping rule the looks use
 * @param maxPairs   the most pairs (--forks, 60 with --precision)
 * @param orderShift how much faster the second fork of a pair runs than the first (warmer caches), on the log scale
 * @param randomOrder whether each pair's order is a coin's (base first always otherwise)
 */
record AdaptiveGate(Rule rule, int maxPairs, double orderShift, boolean randomOrder) {
    static final double PRECISION = 0.02;
    static final int PILOT = StoppingRule.PILOT_PAIRS;
    private static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");
    private static final long FORK_SECONDS = 10;

    /** The stopping rules compared in docs/evidence/adaptive-gate.md. */
    enum Rule {
        /** compare-commits until it asked --stop-status: compare's last line, "settled N of N", unless a "could not tell" line came after it. */
        LAST_LINE,
        /** Every gated interval narrower than the precision, the spread re-estimated at every look. */
        WIDTH_ONLY,
        /**
         * Stein's two stages: {@link StopAnswer}, what the script asks now; the final interval Stein's when the pilot's
         * pairs were reached, the fixed-n one over every pair when the budget (the most pairs) ended it first.
         */
        TWO_STAGE,
        /** The same stops, Stein's interval (the pilot's spread and degrees of freedom) however the comparison ended. */
        STEIN_ALWAYS;

        boolean twoStage() {
            return this == TWO_STAGE || this == STEIN_ALWAYS;
        }
    }

    static AdaptiveGate asShipped() {
        return new AdaptiveGate(Rule.TWO_STAGE, 60, 0, true);
    }

    /** One comparison: the gate's verdict at the end, the pairs it ran and how often it asked whether to stop. */
    record Outcome(Verdict gate, int pairs, int looks) {
    }

    /** One comparison as the script runs it: the stop question only from the pair its last answer named. */
    Outcome run(NoisyMachine machine, double slowdown, SplittableRandom rng) throws BenchException {
        return run(machine, slowdown, rng, false);
    }

    /** @param everyPair ask after every pair from the pilot's last, whatever the last answer said */
    Outcome run(NoisyMachine machine, double slowdown, SplittableRandom rng, boolean everyPair) throws BenchException {
        double[][][] ab = machine.pairs(maxPairs, slowdown, rng);
        boolean[] headFirst = new boolean[maxPairs];
        for (int i = 0; i < maxPairs; i++) {
            headFirst[i] = randomOrder && rng.nextBoolean();
            // the second fork of the pair gains the order effect
            double[] second = headFirst[i] ? ab[0][i] : ab[1][i];
            second[0] *= Math.exp(-orderShift);
        }
        int pilot = rule.twoStage() ? PILOT : Integer.MAX_VALUE;
        int k = StoppingRule.MIN_FORKS;
        int next = k;
        int looks = 0;
        while (k < maxPairs) {
            if (everyPair || k >= next) {
                Comparer.Report r = report(ab, headFirst, k, pilot, precision());
                looks++;
                if (stops(r)) {
                    break;
                }
                next = rule.twoStage() ? Math.max(k + 1, StopAnswer.of(r, PRECISION, PILOT, maxPairs).nextLook())
                        : k + 1;
            }
            k++;
        }
        Comparer.Report end = report(ab, headFirst, k, pilot, precision());
        Comparison row = end.rows().get(0);
        return new Outcome(row.gateVerdict(), k, looks);
    }

    private boolean stops(Comparer.Report r) {
        boolean settled = r.rows().stream().allMatch(row -> StoppingRule.settled(row.ratio(), PRECISION));
        return switch (rule) {
            case LAST_LINE -> settled && r.undecided().isEmpty();
            case WIDTH_ONLY -> settled;
            case TWO_STAGE, STEIN_ALWAYS -> StopAnswer.of(r, PRECISION, PILOT, maxPairs).stop();
        };
    }

    /** The precision compare is told of: the one the stop question used, as the script's last compare is told. */
    private double precision() {
        return rule == Rule.TWO_STAGE ? PRECISION : Double.NaN;
    }

    private static Comparer.Report report(double[][][] ab, boolean[] headFirst, int k, int pilot, double precision)
            throws BenchException {
        return Comparer.compare(List.of(cell(ab[0], headFirst, k, false)), List.of(cell(ab[1], headFirst, k, true)),
                Verdict.DEFAULT_MIN_EFFECT, Verdict.CONFIDENCE, Comparer.PRIMARY_ONLY, false, pilot, precision);
    }

    /** The first {@code k} forks of one side, stamped as the script runs them: pair i's two forks back to back. */
    private static CellResults cell(double[][] means, boolean[] headFirst, int k, boolean head) {
        double[][] forks = new double[k][];
        List<ForkStamp> stamps = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            forks[i] = means[i];
            boolean first = head == headFirst[i];
            Instant start = T0.plusSeconds(FORK_SECONDS * (2L * i + (first ? 0 : 1)));
            stamps.add(new ForkStamp(i, start, start.plusSeconds(FORK_SECONDS - 1)));
        }
        return new CellResults(new CellKey("b.InferenceBenchmark.infer", Map.of("model", "m")), "avgt",
                Map.of("time", MetricSeries.mean("time", "ms/op", forks)), stamps);
    }

    /** Of {@code trials} comparisons at a true {@code slowdown}: the share the gate failed (WORSE), and the mean pairs. */
    double[] failRate(NoisyMachine machine, double slowdown, int trials, long seed) throws BenchException {
        SplittableRandom rng = new SplittableRandom(seed);
        int fails = 0;
        long pairs = 0;
        for (int t = 0; t < trials; t++) {
            Outcome o = run(machine, slowdown, rng);
            fails += o.gate() == Verdict.WORSE ? 1 : 0;
            pairs += o.pairs();
        }
        return new double[]{fails / (double) trials, pairs / (double) trials};
    }
}

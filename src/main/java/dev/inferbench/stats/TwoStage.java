package dev.inferbench.stats;

import java.util.Arrays;

/**
 * Stein's two-stage design for the paired ratio of an adaptive A/B: a pilot of {@code pilot} pairs fixes how many
 * pairs the comparison runs, from the pilot's spread alone, and the final interval takes its spread from the pilot
 * too (t with {@code pilot - 1} degrees of freedom), its centre from every pair.
 *
 * <p>Why this design: for normal pair log ratios the mean of all pairs is independent of the pilot's spread once the
 * number of pairs is a function of that spread only, so {@code sqrt(n) (mean - mu) / s_pilot} is exactly Student's t
 * with {@code pilot - 1} degrees of freedom whatever n the pilot chose (Stein 1945). The interval then keeps its
 * nominal error rate exactly, one look or sixty. Stopping at the first narrow interval (re-estimating the spread
 * after every pair) does not: it stops more often just after pairs that happened to agree, when the spread is
 * underestimated, and so flags more A/A comparisons than its nominal rate (docs/evidence/adaptive-gate.md).
 * Group-sequential looks with alpha
 * spending would also hold the rate and stop early on large changes, but need boundaries computed for a known
 * spread and a planned number of looks, which a gate on a shared VM knows neither of. The price of this design is
 * the t quantile of the pilot's few degrees of freedom: more pairs for the same width (docs/statistics.md).
 *
 * <p><b>A comparison the budget ended</b> before it had the pairs its pilot asked for ran a number of pairs that
 * depends on the clock, not on the data, except through the one fact that the pilot's spread was large: its interval
 * is the fixed-n one over all its pairs (t with {@code n - 1} degrees of freedom, all pairs' spread). That keeps the
 * error rate: for normal pairs the mean of all pairs is independent of every spread computed from them, and the
 * spread of all pairs is the pilot's sum of squares plus independent terms, so knowing that the pilot's spread was
 * large can only widen it. Stein's interval there would throw away what the later pairs say about the spread, and
 * read about twice as wide as the pairs' own spread gives (docs/evidence/power-ledger.md).
 */
public final class TwoStage {
    private TwoStage() {
    }

    /**
     * The pairs the comparison runs in all: enough that the final interval's larger half is at most {@code precision}
     * of the ratio, from the first {@code pilot} pair log ratios only; between {@code pilot} and {@code maxPairs}.
     * -1 while fewer than {@code pilot} pairs have landed.
     */
    /**
     * How a comparison chose its number of pairs: the pilot's pairs, and the precision and confidence its stop question
     * asked with ({@code NaN} precision: no adaptive stop, or one whose precision is not known: Stein's interval).
     */
    public record Plan(int pilot, double precision, double confidence) {
        /** A comparison of a number of pairs fixed in advance. */
        public static final Plan FIXED = new Plan(Integer.MAX_VALUE, Double.NaN, Double.NaN);

        /**
         * Of {@code logRatios}, how many first pairs the interval takes its spread and degrees of freedom from: all of
         * them for a fixed number of pairs or one the budget ended before its pilot's number; the pilot's otherwise.
         */
        public int spreadPairs(double[] logRatios) {
            int k = logRatios.length;
            if (pilot >= k) {
                return k;
            }
            boolean budgetEnded = Double.isFinite(precision)
                    && k < pairsNeeded(logRatios, pilot, precision, confidence, Integer.MAX_VALUE);
            return budgetEnded ? k : pilot;
        }
    }

    public static int pairsNeeded(double[] logRatios, int pilot, double precision, double confidence, int maxPairs) {
        if (logRatios.length < pilot) {
            return -1;
        }
        double s = Math.sqrt(ForkMeans.variance(Arrays.copyOf(logRatios, pilot)));
        double half = Math.log1p(precision);
        double n = Math.ceil(Math.pow(ForkMeans.tQuantile(pilot - 1, confidence) * s / half, 2));
        return (int) Math.min(maxPairs, Math.max(pilot, Double.isFinite(n) ? n : maxPairs));
    }

    /**
     * The half-width of the interval of the mean log ratio: the t quantile of the pilot's degrees of freedom times the
     * larger of the pilot's spread and all pairs' spread, over the square root of {@code effectivePairs}. Stein's
     * interval uses the pilot's spread alone; it is exact for normal pairs only, and a pilot that missed the rare
     * slow forks of a heavy-tailed machine (a burst of other tenants, a bad JIT decision) judged the pairs that had
     * them by the pilot's calm: 3-5 % of simulated A/A comparisons failed. An interval never narrower than Stein's
     * keeps its error-rate bound for normal pairs and sees the tails the later pairs bring.
     */
    static double halfWidth(double[] logRatios, int pilot, double effectivePairs, double confidence) {
        int used = Math.min(pilot, logRatios.length);
        double s = Math.sqrt(Math.max(ForkMeans.variance(Arrays.copyOf(logRatios, used)), ForkMeans.variance(logRatios)));
        return ForkMeans.tQuantile(used - 1, confidence) * s / Math.sqrt(effectivePairs);
    }
}

package dev.inferbench.serve;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

/** Erlang's M/D/1 formula against a direct simulation of the queue (Lindley's recursion) with seeded arrivals. */
class QueueModelTest {
    @Test
    void anIdleServerNeverWaitsAndAFullOneAlways() {
        assertThat(QueueModel.waitCdf(0, 1e-9, 1e-3)).isCloseTo(1.0, offset(1e-6));
        assertThat(QueueModel.waitCdf(0, 500, 1e-3)).isCloseTo(0.5, offset(1e-12)); // P(W = 0) = 1 − ρ
        assertThat(QueueModel.waitCdf(5e-3, 1000, 1e-3)).isZero();
        assertThat(QueueModel.kneeRate(90, 0.5e-3, 1e-3)).isZero();
    }

    @Test
    void theFormulaAgreesWithASimulatedQueue() {
        double d = 1e-3;
        for (double lambda : new double[] {300, 600, 760, 900}) {
            double[] waits = simulate(lambda, d, 400_000, 7);
            for (double t : new double[] {0.5e-3, 1e-3, 2.5e-3, 4e-3}) {
                double simulated = Arrays.stream(waits).filter(w -> w <= t).count() / (double) waits.length;
                assertThat(QueueModel.waitCdf(t, lambda, d)).as("λ=%s t=%s", lambda, t)
                        .isCloseTo(simulated, offset(0.01));
            }
            double mean = Arrays.stream(waits).average().orElseThrow();
            assertThat(QueueModel.meanWait(lambda, d)).isCloseTo(mean, offset(0.05 * mean + 1e-6));
        }
    }

    @Test
    void theKneeIsWhereThePercentileMeetsTheBound() {
        double knee = QueueModel.kneeRate(90, 5e-3, 1e-3);
        assertThat(knee).isBetween(740.0, 780.0);
        assertThat(QueueModel.waitCdf(4e-3, knee, 1e-3)).isCloseTo(0.9, offset(1e-6));
        double[] waits = simulate(knee, 1e-3, 400_000, 11);
        Arrays.sort(waits);
        assertThat(waits[(int) (0.9 * waits.length)] + 1e-3).isCloseTo(5e-3, offset(0.15e-3));
    }

    @Test
    void aLatencyPercentileAgreesWithASimulatedQueue() {
        double d = 4e-3;
        double[] waits = simulate(150, d, 400_000, 13);
        Arrays.sort(waits);
        for (double p : new double[] {50, 90, 99}) {
            double simulated = waits[(int) (p / 100 * waits.length)] + d;
            assertThat(QueueModel.latencyPercentile(p, 150, d)).as("p%s", p).isCloseTo(simulated,
                    offset(0.03 * simulated));
        }
        assertThat(QueueModel.latencyPercentile(50, 1e-9, d)).isCloseTo(d, offset(1e-9)); // idle: the service alone
    }

    /**
     * The knee a search can show lies below the one where the share over the bound equals the allowed share: at the
     * shown knee a step's expected count over the bound is what the binomial rule still calls met.
     */
    @Test
    void theShownKneeLeavesRoomForTheConfidenceRule() {
        double knee = QueueModel.kneeRate(90, 20e-3, 4e-3);
        double shown = QueueModel.shownKneeRate(90, 20e-3, 4e-3, 10, 1000, 0.95);
        assertThat(shown).isLessThan(knee).isGreaterThan(0.9 * knee);
        long n = Math.round(shown * 10);
        double share = 1 - QueueModel.waitCdf(16e-3, shown, 4e-3);
        assertThat(share).isLessThan(0.1).isGreaterThan(0.08); // 1,800 requests: the rule needs about 8.8 % or fewer
        assertThat(share * n).isCloseTo(dev.inferbench.stats.PercentileBound.mostOverForMet(n, 90, 0.95),
                offset(1.5));
        // more requests a step, a narrower margin
        assertThat(QueueModel.shownKneeRate(90, 20e-3, 4e-3, 100, 1000, 0.95)).isBetween(shown, knee);
    }

    @Test
    void oneServerServesTheArrivalsItIsGivenInOrder() {
        // 2 ms a request: the first (warm-up) ends at 2, the next waits 1 and ends at 4, the third waits 2.5 and ends
        // at 6; the fourth finds the server idle
        long ms = 1_000_000;
        QueueModel.Served s = QueueModel.oneServer(new long[] {0, ms, 3 * ms / 2, 10 * ms}, 1, 2 * ms);
        assertThat(s.sortedLatenciesNs()).containsExactly(2 * ms, 3 * ms, 9 * ms / 2);
        assertThat(s.meanWaitMs()).isCloseTo(3.5 / 3, offset(1e-12));
        assertThat(s.percentileMs(50)).isEqualTo(3.0);
        assertThat(s.percentileMs(100)).isEqualTo(4.5);
    }

    /** Over many arrivals one draw's queue tends to the formula's limit; over a step's thousand it need not. */
    @Test
    void oneServerOnManyArrivalsIsTheFormulasQueue() {
        double d = 4e-3;
        QueueModel.Served many = QueueModel.oneServer(Arrivals.POISSON.schedule(100, 400_000, 3), 0, 4_000_000);
        for (double p : new double[] {50, 90, 99}) {
            double limit = 1e3 * QueueModel.latencyPercentile(p, 100, d);
            assertThat(many.percentileMs(p)).as("p%s", p).isCloseTo(limit, offset(0.02 * limit));
        }
        assertThat(many.meanWaitMs()).isCloseTo(1e3 * QueueModel.meanWait(100, d), offset(0.03));
        double[] p90s = new double[6];
        for (int seed = 0; seed < p90s.length; seed++) {
            p90s[seed] = QueueModel.oneServer(Arrivals.POISSON.schedule(100, 1320, seed), 120, 4_000_000)
                    .percentileMs(90);
        }
        // the draws of a 1,200-request step at 100 req/s spread over more than 10 % of the limit's 8.17 ms
        assertThat(Arrays.stream(p90s).max().orElseThrow() - Arrays.stream(p90s).min().orElseThrow())
                .isGreaterThan(0.1 * 1e3 * QueueModel.latencyPercentile(90, 100, d));
    }

    /** Waits of {@code n} requests in a FIFO single-server queue with Poisson arrivals and service time d. */
    private static double[] simulate(double lambda, double d, int n, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double[] waits = new double[n];
        double wait = 0;
        for (int i = 1; i < n; i++) {
            double gap = -Math.log(1 - random.nextDouble()) / lambda;
            wait = Math.max(0, wait + d - gap);
            waits[i] = wait;
        }
        return waits;
    }
}

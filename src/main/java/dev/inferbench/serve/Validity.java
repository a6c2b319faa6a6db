package dev.inferbench.serve;

import dev.inferbench.Numbers;

import java.util.List;
import java.util.Locale;

/**
 * Whether a step measured the service and not the load generator, LoadGen-style: its figures stand only when the
 * scheduler issued the arrivals on time and the callers served at the rate offered. An INVALID step never meets an SLO
 * and its reason is shown wherever its figures are.
 * <ul>
 *   <li><b>late</b>: more than {@link #lateShareAllowed} of the measured arrivals were issued more than
 *       {@link #lateBoundNs} after their time. Latency counts from the intended start, so a late arrival is charged to
 *       the service; when more than half the SLO's tail share is late, the percentile may be the generator's delay.</li>
 *   <li><b>short</b>: the requests served within the window the arrivals span (and one call time after it) fell
 *       below {@value #KEEP_UP} of those the schedule offered in it: the callers fell behind, the queue grew through
 *       the step, and its percentiles depend on how long the step ran. The requests still in flight when arrivals stop
 *       are not a shortfall: a steady queue holds a few at any moment.</li>
 * </ul>
 *
 * @param lateBoundNs the delay past which an arrival counts as late
 * @param late        measured arrivals issued later than that
 * @param requests    measured arrivals
 * @param lateAllowed the share of them that may be late
 * @param served      the rate served within the arrivals' window (req/s)
 * @param scheduled   the rate the schedule offered (req/s)
 */
public record Validity(long lateBoundNs, int late, int requests, double lateAllowed, double served, double scheduled) {
    /** The share of the offered rate the callers must serve. */
    public static final double KEEP_UP = 0.95;
    /** The late share allowed without an SLO. */
    static final double LATE_SHARE = 0.01;
    /** How late an arrival may be without an SLO. */
    static final long LATE_NS = 1_000_000;
    /** An arrival may be late by this share of the tightest bound timed from arrival. */
    static final double LATE_OF_BOUND = 0.1;
    /** No late rule: the SLO bounds only times that do not start at the arrival (TPOT, ITL). */
    public static final long NO_BOUND = Long.MAX_VALUE;

    public static Validity of(StepResult s, Slo slo) {
        long bound = lateBoundNs(slo);
        return new Validity(bound, bound == NO_BOUND ? 0 : s.late(bound), s.requests(), lateShareAllowed(slo),
                s.servedInWindowPerSecond(), s.scheduledPerSecond());
    }

    /**
     * A tenth of the tightest bound among the SLO's terms timed from the arrival (latency, TTFT): a delay that cannot
     * move such a verdict much, and one that scales with it (a 2 s TTFT bound allows 200 ms, a 1 ms latency bound
     * 0.1 ms). Without an SLO, {@value #LATE_NS} ns, so that the latencies shown are the service's. An SLO whose terms
     * are all TPOT or ITL has no late rule ({@link #NO_BOUND}): a late arrival moves those times not at all.
     */
    public static long lateBoundNs(Slo slo) {
        if (slo == null) {
            return LATE_NS;
        }
        long bound = NO_BOUND;
        for (Slo.Term t : slo.terms()) {
            if (startsAtArrival(t)) {
                bound = Math.min(bound, Math.round(t.boundMs() * 1e6 * LATE_OF_BOUND));
            }
        }
        return bound;
    }

    private static boolean startsAtArrival(Slo.Term t) {
        return t.metric() == Slo.Metric.LATENCY || t.metric() == Slo.Metric.TTFT;
    }

    /**
     * Half the tail share of the tightest term timed from arrival (p99: 0.5 %, p90: 5 %): too few late ones to be its
     * tail. A late arrival only lengthens its request's latency, so late ones can make a step miss its SLO, never
     * meet it; under half the tail share, the percentile stays the service's. Without an SLO,
     * {@value #LATE_SHARE}.
     */
    public static double lateShareAllowed(Slo slo) {
        double share = Double.NaN;
        for (Slo.Term t : slo == null ? List.<Slo.Term>of() : slo.terms()) {
            if (startsAtArrival(t)) {
                double half = (100 - t.percentile()) / 100 / 2;
                share = Double.isNaN(share) ? half : Math.min(share, half);
            }
        }
        return Double.isNaN(share) ? LATE_SHARE : share;
    }

    /** Whether arrivals were held to a punctuality bound at all. */
    public boolean checksLateness() {
        return lateBoundNs != NO_BOUND;
    }

    public double lateShare() {
        return requests == 0 ? 0 : late / (double) requests;
    }

    public boolean tooLate() {
        return lateShare() > lateAllowed;
    }

    /** The callers served less than {@value #KEEP_UP} of the offered rate (NaN rates: no schedule, no check). */
    public boolean fellBehind() {
        return served < KEEP_UP * scheduled;
    }

    public boolean valid() {
        return !tooLate() && !fellBehind();
    }

    /** Why the step is INVALID, in words; "" when it is valid. */
    public String reason() {
        StringBuilder sb = new StringBuilder();
        if (tooLate()) {
            sb.append(String.format(Locale.ROOT, "%.1f %% of arrivals issued over %s ms late (at most %.1f %% allowed):"
                    + " the load generator could not keep the schedule", 100 * lateShare(), ms(lateBoundNs),
                    100 * lateAllowed));
        }
        if (fellBehind()) {
            sb.append(sb.length() == 0 ? "" : "; ").append(String.format(Locale.ROOT, "served %.0f of %.0f req/s"
                    + " offered (%.0f %%, at least %.0f %% needed): the callers fell behind", served, scheduled,
                    100 * served / scheduled, 100 * KEEP_UP));
        }
        return sb.toString();
    }

    private static String ms(long ns) {
        return Numbers.plain(ns / 1e6);
    }
}

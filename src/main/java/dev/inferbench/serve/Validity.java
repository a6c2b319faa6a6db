package dev.inferbench.serve;

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
 *   <li><b>short</b>: the served rate fell below {@value #KEEP_UP} of the rate the schedule offered: the callers fell
 *       behind, the queue grew through the step, and its percentiles depend on how long the step ran.</li>
 * </ul>
 *
 * @param lateBoundNs the delay past which an arrival counts as late
 * @param late        measured arrivals issued later than that
 * @param requests    measured arrivals
 * @param lateAllowed the share of them that may be late
 * @param served      the served rate (req/s)
 * @param scheduled   the rate the schedule offered (req/s)
 */
public record Validity(long lateBoundNs, int late, int requests, double lateAllowed, double served, double scheduled) {
    /** The share of the offered rate the callers must serve. */
    public static final double KEEP_UP = 0.95;
    /** The late share allowed without an SLO, and the most allowed with one. */
    static final double LATE_SHARE = 0.01;
    /** The most an arrival may be late without an SLO, and the most with one. */
    static final long LATE_NS = 1_000_000;

    public static Validity of(StepResult s, Slo slo) {
        long bound = lateBoundNs(slo);
        return new Validity(bound, s.late(bound), s.requests(), lateShareAllowed(slo), s.achievedPerSecond(),
                s.scheduledPerSecond());
    }

    /**
     * A tenth of the SLO's bound, at most {@value #LATE_NS} ns: a delay that cannot move the verdict much. Only terms
     * timed from the intended start count (latency, TTFT): a late arrival shifts TPOT and ITL not at all.
     */
    public static long lateBoundNs(Slo slo) {
        long bound = LATE_NS;
        for (Slo.Term t : slo == null ? List.<Slo.Term>of() : slo.terms()) {
            if (t.metric() == Slo.Metric.LATENCY || t.metric() == Slo.Metric.TTFT) {
                bound = Math.min(bound, Math.round(t.boundMs() * 1e6 / 10));
            }
        }
        return bound;
    }

    /** Half the tightest term's tail share (p99: 0.5 %), at most {@value #LATE_SHARE}: too few late ones to be its tail. */
    public static double lateShareAllowed(Slo slo) {
        double share = LATE_SHARE;
        for (Slo.Term t : slo == null ? List.<Slo.Term>of() : slo.terms()) {
            share = Math.min(share, (100 - t.percentile()) / 100 / 2);
        }
        return share;
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
        return Slo.trim(ns / 1e6);
    }
}

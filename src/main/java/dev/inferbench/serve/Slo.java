package dev.inferbench.serve;

import dev.inferbench.BenchException;
import dev.inferbench.stats.PercentileBound;
import dev.inferbench.stats.Percentiles;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A latency objective, {@code p99<50ms}: a percentile of requests' latency (from each request's intended start,
 * queueing included) that must stay at or below a bound. Written {@code pP<Nunit} with unit us, ms or s; {@code <=}
 * reads the same.
 *
 * @param percentile 0 < p < 100 (p50, p90, p99, p99.9)
 * @param boundMs    the bound in ms
 */
public record Slo(double percentile, double boundMs) {
    private static final Pattern FORM = Pattern.compile("p(\\d+(?:\\.\\d+)?)\\s*<=?\\s*(\\d+(?:\\.\\d+)?)\\s*(us|µs|ms|s)");

    /** {@code none}: no objective (a rate sweep that only measures). */
    public static final String NONE = "none";

    public static Slo parse(String text) throws BenchException {
        Matcher m = FORM.matcher(text.strip().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new BenchException("SLO '" + text + "' cannot be read; expected a percentile and a bound, e.g."
                    + " p99<50ms, p90<200us or p99.9<1s");
        }
        double p = Double.parseDouble(m.group(1));
        double bound = Double.parseDouble(m.group(2));
        if (!(p > 0 && p < 100) || bound <= 0) {
            throw new BenchException("SLO '" + text + "' needs a percentile between 0 and 100 (exclusive) and a bound"
                    + " above 0; expected e.g. p99<50ms");
        }
        double ms = switch (m.group(3)) {
            case "us", "µs" -> bound / 1000;
            case "s" -> bound * 1000;
            default -> bound;
        };
        return new Slo(p, ms);
    }

    /** Requests a step needs for its percentile to stand on more than the slowest few ({@link Percentiles#callsFor}). */
    public int requestsNeeded() {
        return (int) Percentiles.callsFor(percentile);
    }

    /** A step's verdict against this SLO: {@link Verdict}. */
    public enum Verdict { MET, MISSED, UNSURE, INVALID }

    /**
     * INVALID when the step measured the generator or an overloaded queue ({@link Validity}); MISSED when it dropped a
     * request; else what the count of requests over the bound says at {@link PercentileBound#CONFIDENCE}: MET, MISSED,
     * or UNSURE when the step's requests cannot tell (the sample percentile alone is a coin flip near the bound).
     */
    public Verdict judge(StepResult step) {
        if (!Validity.of(step, this).valid()) {
            return Verdict.INVALID;
        }
        if (step.dropped() > 0) {
            return Verdict.MISSED;
        }
        return switch (PercentileBound.judge(step.requests(), step.over(boundNs()), percentile,
                PercentileBound.CONFIDENCE)) {
            case MET -> Verdict.MET;
            case MISSED -> Verdict.MISSED;
            case UNSURE -> Verdict.UNSURE;
        };
    }

    /** Whether the step is shown to meet the SLO: valid, nothing dropped, the percentile met with confidence. */
    public boolean metBy(StepResult step) {
        return judge(step) == Verdict.MET;
    }

    public long boundNs() {
        return Math.round(boundMs * 1e6);
    }

    /** p99<50ms, as a user writes it. */
    @Override
    public String toString() {
        return "p" + trim(percentile) + "<" + trim(boundMs) + "ms";
    }

    static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}

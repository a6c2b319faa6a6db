package dev.inferbench.serve;

import dev.inferbench.BenchException;
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

    public boolean metBy(StepResult step) {
        return step.dropped() == 0 && step.percentileMs(percentile) <= boundMs;
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

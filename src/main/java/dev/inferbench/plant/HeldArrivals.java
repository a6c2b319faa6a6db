package dev.inferbench.plant;

import dev.inferbench.BenchException;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A planted lateness of the load generator, so that {@code serve.late} can be held against a known value: every
 * {@code every}-th request (the {@code every}-th, the {@code 2 × every}-th, ..., counting the step's warm-up ones) is
 * issued {@code heldNs} after its time, by whoever issues it, while its latency still counts from the time it was
 * due. Given as {@code -Dinferbench.heldArrivals=3ms/200} among the forks' JVM arguments (durations in us, ms or s);
 * none without it. A calibration aid, as the stub engine is the service's.
 *
 * @param every 0: none held
 */
public record HeldArrivals(long heldNs, int every) {
    public static final String PROPERTY = "inferbench.heldArrivals";
    public static final HeldArrivals NONE = new HeldArrivals(0, 0);
    private static final Pattern FORM = Pattern.compile("(\\d+(?:\\.\\d+)?)(us|µs|ms|s)/(\\d+)");

    /** What this JVM was given, {@link #NONE} without the property. */
    public static HeldArrivals ofProperty() throws BenchException {
        String text = System.getProperty(PROPERTY);
        return text == null || text.isBlank() ? NONE : parse(text);
    }

    public static HeldArrivals parse(String text) throws BenchException {
        Matcher m = FORM.matcher(text.strip());
        if (!m.matches() || Integer.parseInt(m.group(3)) < 1) {
            throw new BenchException("-D" + PROPERTY + "=" + text + ": expected a delay and every how many requests,"
                    + " e.g. 3ms/200 (every 200th request issued 3 ms after its time)");
        }
        return new HeldArrivals(Plant.nanos(Double.parseDouble(m.group(1)), m.group(2)), Integer.parseInt(m.group(3)));
    }

    /** How long after its time request {@code i} (from 0) is issued. */
    public long of(int i) {
        return every > 0 && (i + 1) % every == 0 ? heldNs : 0;
    }
}

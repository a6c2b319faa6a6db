package dev.inferbench.results;

import dev.inferbench.stats.Direction;

import java.util.regex.Pattern;

/**
 * What one metric is, as every output reads it: its name (a family of percentiles writes {@code <p>} where the
 * percentile goes: {@code gen.itl.p<p>}), the unit the JMH JSON holds it in, the unit outputs show it in, which way it
 * improves, how its forks combine, whether the gate takes it by default, whether compare says faster/slower of it
 * (a time) rather than better/worse, the short heading a narrow table gives it, the group of a report table's
 * columns it is shown in, and what it is, in a line.
 */
public record MetricEntry(String name, String unit, String display, Direction direction, ForkRule forks,
                          boolean gated, boolean speed, String heading, MetricGroup group, String description) {
    /** Where a family's name holds its percentile. */
    public static final String P = "<p>";

    /** Whether {@code metric} is this entry: the name itself, or one of the family's percentiles. */
    public boolean matches(String metric) {
        if (!name.contains(P)) {
            return name.equals(metric);
        }
        return pattern().matcher(metric).matches();
    }

    /** Whether this entry is a family of percentiles ({@code serve.p<p>}). */
    public boolean family() {
        return name.contains(P);
    }

    private Pattern pattern() {
        int at = name.indexOf(P);
        return Pattern.compile(Pattern.quote(name.substring(0, at)) + "\\d+(\\.\\d+)?"
                + Pattern.quote(name.substring(at + P.length())));
    }

    /** The summary's column heading: the short heading and the display unit ({@code load ms}). */
    public String column() {
        return display.isEmpty() ? heading : heading + " " + display;
    }
}

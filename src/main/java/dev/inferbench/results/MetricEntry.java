package dev.inferbench.results;

import dev.inferbench.stats.Direction;
import dev.inferbench.tail.Cause;

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
    /** Where a family's name holds a cause of slow calls or "unexplained" ({@code tail.<cause>}). */
    public static final String CAUSE = "<cause>";

    /** Whether {@code metric} is this entry: the name itself, or one of the family's percentiles or causes. */
    public boolean matches(String metric) {
        if (!family()) {
            return name.equals(metric);
        }
        return pattern().matcher(metric).matches();
    }

    /** Whether this entry is a family of percentiles ({@code serve.p<p>}) or of causes ({@code tail.<cause>}). */
    public boolean family() {
        return name.contains(P) || name.contains(CAUSE);
    }

    private Pattern pattern() {
        return Pattern.compile(Pattern.quote(name).replace(P, "\\E\\d+(\\.\\d+)?\\Q")
                .replace(CAUSE, "\\E(" + String.join("|", Cause.columns()) + ")\\Q"));
    }

    /** The summary's column heading: the short heading and the display unit ({@code load ms}). */
    public String column() {
        return display.isEmpty() ? heading : heading + " " + display;
    }
}

package dev.inferbench.metrics;

import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

import java.util.ArrayList;
import java.util.List;

/**
 * The secondary metrics one profiler gives for one iteration, in the order added. NaN is how a reading says it was
 * not measured (no /proc, too few calls, not this kind of cell), so {@link #add} and {@link #max} leave it out rather
 * than write a "NaN" figure that a reader would average in; {@link #kept} is for figures the benchmark measured
 * itself, which the JSON carries as they came.
 */
public final class Figures {
    private final List<Result> out = new ArrayList<>();

    /** A figure averaged over iterations and forks; left out when NaN. */
    public Figures add(String label, double value, String unit) {
        return Double.isNaN(value) ? this : kept(label, value, unit);
    }

    /** A figure whose largest value over iterations and forks is the cell's (a peak); left out when NaN. */
    public Figures max(String label, double value, String unit) {
        if (!Double.isNaN(value)) {
            out.add(new ScalarResult(label, value, unit, AggregationPolicy.MAX));
        }
        return this;
    }

    /** A figure averaged over iterations and forks, NaN included. */
    public Figures kept(String label, double value, String unit) {
        out.add(new ScalarResult(label, value, unit, AggregationPolicy.AVG));
        return this;
    }

    List<Result> results() {
        return out;
    }
}

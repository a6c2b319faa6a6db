package dev.inferbench.run;

import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.Aggregator;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ResultRole;
import org.openjdk.jmh.util.ListStatistics;
import org.openjdk.jmh.util.Statistics;

import java.util.Collection;

/**
 * A throughput, average-time or single-shot result read back from a fork record. JMH's own classes take the
 * operations and nanoseconds a result was measured as and divide again, which does not give the stored score back
 * bit for bit; this one holds the score itself and combines threads and iterations exactly as JMH's
 * {@code ThroughputResult}, {@code AverageTimeResult} and {@code SingleShotResult} do, so that JMH's writers give the
 * same bytes for a merged run as for the forks it ran.
 */
final class StoredScore extends Result<StoredScore> {
    private static final long serialVersionUID = 1L;

    /** The JMH result kind, and how it combines the threads of an iteration and the iterations of a run. */
    enum Kind {
        THROUGHPUT(AggregationPolicy.SUM, AggregationPolicy.AVG),
        AVERAGE_TIME(AggregationPolicy.AVG, AggregationPolicy.AVG),
        SINGLE_SHOT(AggregationPolicy.AVG, AggregationPolicy.AVG);

        final AggregationPolicy threads;
        final AggregationPolicy iterations;

        Kind(AggregationPolicy threads, AggregationPolicy iterations) {
            this.threads = threads;
            this.iterations = iterations;
        }
    }

    private final Kind kind;

    StoredScore(Kind kind, ResultRole role, String label, Statistics statistics, String unit,
                AggregationPolicy policy) {
        super(role, label, statistics, unit, policy);
        this.kind = kind;
    }

    Kind kind() {
        return kind;
    }

    AggregationPolicy policy() {
        return policy;
    }

    @Override
    protected Aggregator<StoredScore> getThreadAggregator() {
        return results -> combine(results, kind.threads);
    }

    @Override
    protected Aggregator<StoredScore> getIterationAggregator() {
        return results -> combine(results, kind.iterations);
    }

    @Override
    public String extendedInfo() {
        return kind == Kind.SINGLE_SHOT ? distributionExtendedInfo() : super.extendedInfo();
    }

    /** JMH's aggregators: the scores of the parts as the samples of the whole, refusing parts that differ. */
    private static StoredScore combine(Collection<StoredScore> results, AggregationPolicy policy) {
        StoredScore first = results.iterator().next();
        ListStatistics scores = new ListStatistics();
        for (StoredScore r : results) {
            if (r.kind != first.kind || r.role != first.role || !r.label.equals(first.label)
                    || !r.unit.equals(first.unit)) {
                throw new IllegalStateException("Combining the results with different kinds, roles, labels or units");
            }
            scores.addValue(r.getScore());
        }
        return new StoredScore(first.kind, first.role, first.label, scores, first.unit, policy);
    }
}

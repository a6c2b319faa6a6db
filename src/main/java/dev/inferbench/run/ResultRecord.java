package dev.inferbench.run;

import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.AverageTimeResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ResultRole;
import org.openjdk.jmh.results.SampleTimeResult;
import org.openjdk.jmh.results.ScalarDerivativeResult;
import org.openjdk.jmh.results.ScalarResult;
import org.openjdk.jmh.results.SingleShotResult;
import org.openjdk.jmh.results.TextResult;
import org.openjdk.jmh.results.ThroughputResult;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.util.ListStatistics;
import org.openjdk.jmh.util.SampleBuffer;
import org.openjdk.jmh.util.Statistics;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One JMH result (of one thread, one iteration or a whole fork) as plain data, and the JMH object made again from
 * it. Nothing in the data names a class: the kind is one of a fixed list, and each kind is made by its own code.
 *
 * @param values  the samples of a score kind's statistics in their order; a scalar's one value
 * @param samples a sample-time histogram, as [nanoseconds, count] pairs of JMH's sample buffer
 * @param text    the output of a text result (a profiler's report)
 */
record ResultRecord(Kind kind, ResultRole role, String label, String unit, AggregationPolicy policy,
                    double[] values, long[][] samples, String text) {

    /** Which JMH result this is. A result class of another profiler's own is kept as a scalar of its score. */
    enum Kind { THROUGHPUT, AVERAGE_TIME, SINGLE_SHOT, SAMPLE_TIME, SCALAR, DERIVATIVE, TEXT }

    /**
     * JMH keeps a result's aggregation policy (how a scalar's iterations combine: average, sum, max, min) to itself,
     * yet a merge must combine them as the run would have; it is read here, and nowhere else.
     */
    private static final VarHandle POLICY;

    static {
        try {
            POLICY = MethodHandles.privateLookupIn(Result.class, MethodHandles.lookup())
                    .findVarHandle(Result.class, "policy", AggregationPolicy.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    static ResultRecord of(Result<?> r) {
        AggregationPolicy policy = (AggregationPolicy) POLICY.get(r);
        if (r instanceof SampleTimeResult) {
            return new ResultRecord(Kind.SAMPLE_TIME, r.getRole(), r.getLabel(), r.getScoreUnit(), policy, null,
                    samples(r.getStatistics(), timeUnit(r.getScoreUnit())), null);
        }
        if (r instanceof TextResult) {
            return new ResultRecord(Kind.TEXT, r.getRole(), r.getLabel(), r.getScoreUnit(), policy, null, null,
                    r.extendedInfo());
        }
        Kind kind = r instanceof ThroughputResult ? Kind.THROUGHPUT
                : r instanceof AverageTimeResult ? Kind.AVERAGE_TIME
                : r instanceof SingleShotResult ? Kind.SINGLE_SHOT
                : r instanceof StoredScore s ? Kind.valueOf(s.kind().name())
                : r instanceof ScalarDerivativeResult ? Kind.DERIVATIVE
                : Kind.SCALAR;
        double[] values = kind == Kind.SCALAR || kind == Kind.DERIVATIVE
                ? new double[]{r.getScore()} : values(r.getStatistics());
        return new ResultRecord(kind, r.getRole(), r.getLabel(), r.getScoreUnit(), policy, values, null, null);
    }

    /** The JMH result this record was made from; IllegalArgumentException when the record cannot be one. */
    Result<?> toResult() {
        require(kind != null && role != null && label != null && unit != null && policy != null,
                "a result needs kind, role, label, unit and policy");
        return switch (kind) {
            case THROUGHPUT, AVERAGE_TIME, SINGLE_SHOT -> new StoredScore(StoredScore.Kind.valueOf(kind.name()), role,
                    label, statistics(), unit, policy);
            case SCALAR -> {
                require(role == ResultRole.SECONDARY, "a scalar is a secondary result");
                yield new ScalarResult(label, single(), unit, policy);
            }
            case DERIVATIVE -> {
                require(role == ResultRole.SECONDARY_DERIVATIVE, "a derivative is a secondary derivative result");
                yield new ScalarDerivativeResult(label, single(), unit, policy);
            }
            case SAMPLE_TIME -> sampleTime();
            case TEXT -> new TextResult(require(text, "a text result needs its text"), label);
        };
    }

    private Statistics statistics() {
        require(values != null && values.length > 0, kind + " '" + label + "' has no values");
        return new ListStatistics(values);
    }

    private double single() {
        require(values != null && values.length == 1, kind + " '" + label + "': expected one value");
        return values[0];
    }

    private SampleTimeResult sampleTime() {
        require(samples != null, "sample time '" + label + "' has no samples");
        TimeUnit tu = timeUnit(unit);
        SampleBuffer buffer = new SampleBuffer();
        long total = 0;
        for (long[] pair : samples) {
            require(pair != null && pair.length == 2 && pair[0] >= 0 && pair[1] >= 1,
                    "sample time '" + label + "': expected [nanoseconds, count] pairs");
            total += pair[1];
            // JMH's buffer counts in ints: more samples than that cannot come from a run
            require(total <= Integer.MAX_VALUE, "sample time '" + label + "': more samples than a buffer holds");
            for (long i = 0; i < pair[1]; i++) {
                buffer.add(pair[0]);
            }
        }
        SampleTimeResult r = new SampleTimeResult(role, label, buffer, tu);
        require(r.getScoreUnit().equals(unit), "sample time '" + label + "': unit " + unit);
        return r;
    }

    /** The samples of a list of scores, in their order (the order of a sum decides its last bit). */
    private static double[] values(Statistics s) {
        List<Double> out = new ArrayList<>();
        for (Iterator<Map.Entry<Double, Long>> it = s.getRawData(); it.hasNext(); ) {
            Map.Entry<Double, Long> e = it.next();
            for (long i = 0; i < e.getValue(); i++) {
                out.add(e.getKey());
            }
        }
        return out.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /**
     * A sample-time histogram back in the nanoseconds JMH's buffer recorded: each bin is that value times the
     * output unit's factor, so dividing by the same factor and rounding gives the recorded whole number again.
     */
    private static long[][] samples(Statistics s, TimeUnit tu) {
        double factor = factor(tu);
        List<long[]> out = new ArrayList<>();
        for (Iterator<Map.Entry<Double, Long>> it = s.getRawData(); it.hasNext(); ) {
            Map.Entry<Double, Long> e = it.next();
            if (e.getValue() > 0) {
                out.add(new long[]{Math.round(e.getKey() / factor), e.getValue()});
            }
        }
        return out.toArray(long[][]::new);
    }

    /** The factor SampleTimeResult multiplies nanoseconds by, computed as it computes it. */
    private static double factor(TimeUnit tu) {
        return 1.0D * tu.convert(1, TimeUnit.DAYS) / TimeUnit.NANOSECONDS.convert(1, TimeUnit.DAYS);
    }

    private static TimeUnit timeUnit(String unit) {
        for (TimeUnit tu : TimeUnit.values()) {
            if ((TimeValue.tuToString(tu) + "/op").equals(unit)) {
                return tu;
            }
        }
        throw new IllegalArgumentException("unit " + unit + " is no time per operation");
    }

    static void require(boolean ok, String what) {
        if (!ok) {
            throw new IllegalArgumentException(what);
        }
    }

    static <T> T require(T value, String what) {
        require(value != null, what);
        return value;
    }
}

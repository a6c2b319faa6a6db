package dev.inferbench.metrics;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

import java.util.Collection;
import java.util.List;

/**
 * {@value #LABEL} (B/op): the Java heap bytes of each call, read on the calling thread around the calls themselves
 * ({@link CallBytes}), per iteration. Given where the benchmark's calls go through a {@link CallBytes.Sampler} (the
 * inference and serving benchmarks); JMH's {@code gc.alloc.rate.norm}, everything allocated in the iteration over its
 * calls, stays in the JSON beside it under its own name.
 */
public final class CallBytesProfiler implements InternalProfiler {
    public static final String LABEL = "alloc.call";

    @Override
    public String getDescription() {
        return "Java heap bytes per call, read on the calling thread around its calls";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        CallBytes.reset();
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                       IterationResult result) {
        double perCall = CallBytes.perCall();
        if (Double.isNaN(perCall)) {
            return List.of();
        }
        return List.of(new ScalarResult(LABEL, perCall, "B/op", AggregationPolicy.AVG));
    }
}

package dev.inferbench.metrics;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * What the trial setup of this fork took, from {@link SetupRecord}: {@value #LOAD_TIME} (model file to a ready
 * session), {@value #FIRST_INFERENCE} (the first call on that session, cold caches and lazy initialisation
 * included) and {@value #PROCESS_TO_FIRST_RESULT} (from the JVM's start to the end of that first call), in ms. The same figure is reported after every iteration of a fork, so the cell's value is the
 * mean over forks. Benchmarks whose setup records nothing get nothing.
 */
public final class SetupProfiler implements InternalProfiler {
    public static final String LOAD_TIME = "load.time";
    public static final String FIRST_INFERENCE = "first.inference";
    public static final String PROCESS_TO_FIRST_RESULT = "coldstart.process";
    public static final String MS = "ms";

    @Override
    public String getDescription() {
        return "model load time and first inference time of the fork's trial setup (ms)";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        // the figures were taken in the trial setup, before any iteration
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                       IterationResult result) {
        List<Result> out = new ArrayList<>();
        add(out, LOAD_TIME, SetupRecord.loadMillis());
        add(out, FIRST_INFERENCE, SetupRecord.firstInferenceMillis());
        add(out, PROCESS_TO_FIRST_RESULT, SetupRecord.processToFirstResultMillis());
        return out;
    }

    private static void add(List<Result> out, String label, double millis) {
        if (!Double.isNaN(millis)) {
            out.add(new ScalarResult(label, millis, MS, AggregationPolicy.AVG));
        }
    }
}

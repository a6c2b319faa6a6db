package dev.inferbench.metrics;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;

/**
 * {@value #LABEL} (B/op): the Java heap bytes of each call, read on the calling thread around the calls themselves
 * ({@link CallBytes}), per iteration. Given where the benchmark's calls go through a {@link CallBytes.Sampler} (the
 * inference and serving benchmarks); JMH's {@code gc.alloc.rate.norm}, everything allocated in the iteration over its
 * calls, stays in the JSON beside it under its own name.
 */
public final class CallBytesProfiler extends FigureProfiler {
    public static final String LABEL = "alloc.call";

    public CallBytesProfiler() {
        super("Java heap bytes per call, read on the calling thread around its calls");
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        CallBytes.reset();
    }

    @Override
    protected void figures(Iteration iteration, Figures out) {
        out.add(LABEL, CallBytes.perCall(), "B/op");
    }
}

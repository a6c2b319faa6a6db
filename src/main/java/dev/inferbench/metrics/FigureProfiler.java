package dev.inferbench.metrics;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.runner.IterationType;

import java.util.Collection;

/**
 * The shape every inferbench profiler has: after each iteration it reads what the fork measured (the iteration's own
 * result, a clock, or what the benchmark left for it) and gives it as {@link Figures}, JMH secondary metrics. A
 * profiler that starts nothing before an iteration, most of them, overrides only {@link #figures}; JMH makes each one
 * by its public no-argument constructor.
 */
public abstract class FigureProfiler implements InternalProfiler {
    /** What JMH hands a profiler after an iteration, in one value. */
    public record Iteration(BenchmarkParams benchmark, IterationParams params, IterationResult result) {
        /** Whether this is a measured iteration, not a warm-up one. */
        public boolean measured() {
            return params.getType() == IterationType.MEASUREMENT;
        }
    }

    private final String description;

    protected FigureProfiler(String description) {
        this.description = description;
    }

    /** Adds this iteration's figures to {@code out}; a figure that was not measured is simply not added. */
    protected abstract void figures(Iteration iteration, Figures out);

    @Override
    public final String getDescription() {
        return description;
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        // most figures are read after the iteration, or were taken in the trial setup before any
    }

    @Override
    public final Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams,
                                                             IterationParams iterationParams, IterationResult result) {
        Figures out = new Figures();
        figures(new Iteration(benchmarkParams, iterationParams, result), out);
        return out.results();
    }
}

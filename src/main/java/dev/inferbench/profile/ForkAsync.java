package dev.inferbench.profile;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.AsyncProfiler;
import org.openjdk.jmh.profile.ExternalProfiler;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.profile.ProfilerException;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;

import java.io.File;
import java.lang.reflect.Field;
import java.util.Collection;

/**
 * JMH's async profiler writing straight into its {@code dir=}, not into a folder named after the benchmark's id under
 * it. The id is the benchmark's name with every parameter and its value, so a model given by path (or a cell with
 * many parameters) makes it longer than a file name may be, and the profiler then cannot open its output. Every fork
 * gets a {@code dir=} of its own ({@link FlameHook}, {@link UserAsyncHook}), so the id folder holds nothing the
 * folder does not. Everything else is JMH's profiler as it is, with the same options.
 */
public final class ForkAsync implements ExternalProfiler, InternalProfiler {
    private final AsyncProfiler profiler;

    public ForkAsync(String initLine) throws ProfilerException {
        profiler = new AsyncProfiler(initLine);
        try {
            Field out = AsyncProfiler.class.getDeclaredField("outDir");
            Field trial = AsyncProfiler.class.getDeclaredField("trialOutDir");
            out.setAccessible(true);
            trial.setAccessible(true);
            // JMH sets (and makes) the trial folder only while it is null, at the first iteration: set first, it stays
            File dir = (File) out.get(profiler);
            if (dir != null) {
                trial.set(profiler, dir);
                if (!dir.isDirectory() && !dir.mkdirs()) {
                    throw new ProfilerException("cannot create " + dir + " for the async profiler's output");
                }
            }
        } catch (ReflectiveOperationException | SecurityException e) {
            throw new ProfilerException("this JMH's async profiler has no outDir and trialOutDir fields ("
                    + e.getMessage() + "); expected JMH 1.37's", e);
        }
    }

    @Override
    public Collection<String> addJVMInvokeOptions(BenchmarkParams params) {
        return profiler.addJVMInvokeOptions(params);
    }

    @Override
    public Collection<String> addJVMOptions(BenchmarkParams params) {
        return profiler.addJVMOptions(params);
    }

    @Override
    public void beforeTrial(BenchmarkParams params) {
        profiler.beforeTrial(params);
    }

    @Override
    public Collection<? extends Result> afterTrial(BenchmarkResult result, long pid, File stdOut, File stdErr) {
        return profiler.afterTrial(result, pid, stdOut, stdErr);
    }

    @Override
    public boolean allowPrintOut() {
        return profiler.allowPrintOut();
    }

    @Override
    public boolean allowPrintErr() {
        return profiler.allowPrintErr();
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        profiler.beforeIteration(benchmarkParams, iterationParams);
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                       IterationResult result) {
        return profiler.afterIteration(benchmarkParams, iterationParams, result);
    }

    @Override
    public String getDescription() {
        return profiler.getDescription();
    }
}

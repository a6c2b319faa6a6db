package dev.inferbench.metrics;

import java.lang.management.ManagementFactory;

/**
 * What a benchmark's trial setup saw while loading its model, kept in the fork's JVM for the profilers that report
 * it ({@link SetupProfiler}, {@link MemoryProfiler}): the setup fills it in, the profilers read it after each
 * iteration. Static because JMH gives profilers no other way to reach a benchmark's state; one fork runs one trial.
 */
public final class SetupRecord {
    private static volatile long loadStartNanos;
    private static volatile double loadMillis = Double.NaN;
    private static volatile double firstInferenceMillis = Double.NaN;
    private static volatile double processToFirstResultMillis = Double.NaN;
    private static volatile long rssBeforeLoadKb = -1;
    private static volatile long rssAfterLoadKb = -1;
    private static volatile int tokensPerSample;

    private SetupRecord() {
    }

    /** Call just before the model file is opened. */
    public static void loadStarting() {
        rssBeforeLoadKb = ProcStatus.read().rssKb();
        loadStartNanos = System.nanoTime();
    }

    /** Call as soon as the engine holds a ready session. */
    public static void loaded() {
        loadMillis = (System.nanoTime() - loadStartNanos) / 1e6;
        rssAfterLoadKb = ProcStatus.read().rssKb();
    }

    /** Call around the first inference of the trial: {@code startNanos} from System.nanoTime() before it. */
    public static void firstInference(long startNanos) {
        long now = System.nanoTime();
        firstInferenceMillis = (now - startNanos) / 1e6;
        if (Double.isNaN(processToFirstResultMillis)) {
            processToFirstResultMillis = System.currentTimeMillis()
                    - ManagementFactory.getRuntimeMXBean().getStartTime();
        }
    }

    /**
     * Call when the cell's inputs are made: tokens per sample of a sequence model (the seqLen of its token inputs),
     * so that its throughput is also given in tokens/s; 0 (the default) for models without token inputs.
     */
    public static void tokensPerSample(int tokens) {
        tokensPerSample = tokens;
    }

    static int tokensPerSample() {
        return tokensPerSample;
    }

    static double loadMillis() {
        return loadMillis;
    }

    static double firstInferenceMillis() {
        return firstInferenceMillis;
    }

    /** From the JVM's start (as the JVM records it) to the end of the first inference in this process. */
    static double processToFirstResultMillis() {
        return processToFirstResultMillis;
    }

    /** RSS growth across the load, in kB; {@link Long#MIN_VALUE} when no load was recorded or /proc is unavailable. */
    static long modelNativeKb() {
        return rssBeforeLoadKb < 0 || rssAfterLoadKb < 0 ? Long.MIN_VALUE : rssAfterLoadKb - rssBeforeLoadKb;
    }

    /** Forgets everything (tests run several setups in one JVM). */
    static void clear() {
        loadMillis = Double.NaN;
        firstInferenceMillis = Double.NaN;
        processToFirstResultMillis = Double.NaN;
        rssBeforeLoadKb = -1;
        rssAfterLoadKb = -1;
        tokensPerSample = 0;
    }
}

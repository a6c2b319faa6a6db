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
    private static volatile long loadPeakKb = -1;
    private static volatile long callsEndedNanos;
    private static volatile int tokensPerSample;

    private SetupRecord() {
    }

    /** Call just before the model file is opened. */
    public static void loadStarting() {
        rssBeforeLoadKb = ProcStatus.read().rssKb();
        loadPeakReset = ResidentPeak.reset();
        loadStartNanos = System.nanoTime();
    }

    private static volatile boolean loadPeakReset;

    /** Call as soon as the engine holds a ready session. */
    public static void loaded() {
        loadMillis = (System.nanoTime() - loadStartNanos) / 1e6;
        ProcStatus after = ProcStatus.read();
        rssAfterLoadKb = after.rssKb();
        loadPeakKb = loadPeakReset ? after.peakRssKb() : -1;
    }

    /**
     * Call first thing in the trial's teardown: JMH runs it inside the last measured iteration, and what it frees
     * (the model) is not what the calls held; the memory sampler takes no reading after this.
     */
    public static void callsEnded() {
        long now = System.nanoTime();
        callsEndedNanos = now == 0 ? 1 : now;
    }

    /** When {@link #callsEnded} was called (System.nanoTime()), 0 while the calls go on. */
    static long callsEndedNanos() {
        return callsEndedNanos;
    }

    /** The resident set's peak while the model loaded, kB; -1 when no load was recorded or the mark could not be reset. */
    static long loadPeakKb() {
        return loadPeakKb;
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
        loadPeakKb = -1;
        loadPeakReset = false;
        callsEndedNanos = 0;
        tokensPerSample = 0;
    }
}

package dev.inferbench.metrics;

/**
 * What the trial setup of this fork took, from {@link SetupRecord}: {@value #LOAD_TIME} (model file to a ready
 * session), {@value #FIRST_INFERENCE} (the first call on that session, cold caches and lazy initialisation
 * included) and {@value #PROCESS_TO_FIRST_RESULT} (from the JVM's start to the end of that first call), in ms. The same figure is reported after every iteration of a fork, so the cell's value is the
 * mean over forks. Benchmarks whose setup records nothing get nothing.
 */
public final class SetupProfiler extends FigureProfiler {
    public static final String LOAD_TIME = "load.time";
    public static final String FIRST_INFERENCE = "first.inference";
    public static final String PROCESS_TO_FIRST_RESULT = "coldstart.process";
    public static final String MS = "ms";

    public SetupProfiler() {
        super("model load time and first inference time of the fork's trial setup (ms)");
    }

    @Override
    protected void figures(Iteration it, Figures out) {
        // the figures were taken in the trial setup, before any iteration
        out.add(LOAD_TIME, SetupRecord.loadMillis(), MS)
                .add(FIRST_INFERENCE, SetupRecord.firstInferenceMillis(), MS)
                .add(PROCESS_TO_FIRST_RESULT, SetupRecord.processToFirstResultMillis(), MS);
    }
}

package dev.inferbench.serve;

/**
 * The latest measured step of this fork (or the step a rate search settled on), for {@link ServingProfiler} to turn
 * into the cell's figures. One cell per fork JVM, so one holder suffices.
 */
public final class ServingRecord {
    /** @param search the rate search that chose {@code step}; null for a step at a fixed rate */
    public record Entry(StepResult step, Slo slo, RateSearch.Found search) {
    }

    private static volatile Entry latest;

    private ServingRecord() {
    }

    public static void record(StepResult step, Slo slo, RateSearch.Found search) {
        latest = new Entry(step, slo, search);
    }

    static Entry take() {
        Entry e = latest;
        latest = null;
        return e;
    }
}

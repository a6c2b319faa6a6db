package dev.inferbench.serve;

import dev.inferbench.metrics.Handoff;

/**
 * The latest measured step of this fork (or the step a rate search settled on), for {@link ServingProfiler} to turn
 * into the cell's figures. One cell per fork JVM, so one holder suffices.
 */
public final class ServingRecord {
    /** @param search the rate search that chose {@code step}; null for a step at a fixed rate */
    public record Entry(StepResult step, Slo slo, RateSearch.Found search) {
    }

    private static final Handoff.Slot<Entry> LATEST = new Handoff.Slot<>();

    private ServingRecord() {
    }

    public static void record(StepResult step, Slo slo, RateSearch.Found search) {
        LATEST.set(new Entry(step, slo, search));
    }

    /**
     * Measures what the cell asks and records it: with {@code rate=max}, the rate search from {@code capacity} (its
     * trail printed, a passing top rate named as a ceiling, non-monotone pairs counted); else one step at the cell's
     * rate, an INVALID one said in a line. The one way ServingBenchmark and GenerationLoadBenchmark end a step.
     *
     * @return the step recorded (the one the search settled on)
     */
    public static StepResult measure(RateSearch.Step step, ServingSpec spec, double capacity) throws Exception {
        if (spec.searchesRate()) {
            RateSearch.Found found = RateSearch.find(step, spec.slo(), capacity, ServingSpec.SCHEDULABLE);
            // each fork's trail: what the knee line's one figure stands on, and where the service was not monotone
            System.out.println("[inferbench] rate search at " + spec.slo() + ": " + found.trail()
                    + (found.ceiling() ? "; the highest rate tried passed: a ceiling, not a knee" : "")
                    + (found.nonMonotone() > 0 ? "; not monotone: " + found.nonMonotone() + " pair(s) of rates met above"
                    + " one not met" : ""));
            record(found.best(), spec.slo(), found);
            return found.best();
        } else {
            StepResult r = step.at(spec.rate());
            Validity v = Validity.of(r, spec.slo());
            if (!v.valid()) {
                System.out.println("[inferbench] step " + (spec.closed() ? "of " + spec.users() + " users"
                        : "at " + spec.rate() + " req/s") + " INVALID: " + v.reason());
            }
            record(r, spec.slo(), null);
            return r;
        }
    }

    static Entry take() {
        return LATEST.take();
    }
}

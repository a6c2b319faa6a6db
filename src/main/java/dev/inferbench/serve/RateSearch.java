package dev.inferbench.serve;

import java.util.ArrayList;
import java.util.List;

/**
 * The highest arrival rate whose steps meet an SLO, found the way a load tester would by hand: from the callers'
 * closed-loop capacity (the most they can serve back to back), halve the rate until a step meets the SLO, then bisect
 * between the highest rate that met it and the lowest that did not, until the two are within {@value #RESOLUTION}
 * of each other or {@value #MAX_STEPS} steps were run. Each step is a full open-loop step of the SLO's request count,
 * so a step's verdict stands on enough requests for its percentile; how sure the sustainable rate is comes from the
 * forks (each fork searches anew), as for every other figure.
 */
public final class RateSearch {
    static final double RESOLUTION = 0.05;
    static final int MAX_STEPS = 8;
    /** Below this share of the capacity the search stops halving: the SLO cannot be met at any useful rate. */
    static final double FLOOR = 1.0 / 64;

    /** One step at one rate. */
    @FunctionalInterface
    public interface Step {
        StepResult at(double perSecond) throws Exception;
    }

    /**
     * @param sustainable the highest rate that met the SLO (0 when none did)
     * @param failing     the lowest rate that missed it (NaN when none did within the search)
     * @param best        the step at {@code sustainable}, or the lowest step when none met the SLO
     * @param steps       every step, in the order run
     */
    public record Found(double sustainable, double failing, StepResult best, List<StepResult> steps) {
    }

    private RateSearch() {
    }

    public static Found find(Step step, Slo slo, double capacityPerSecond) throws Exception {
        List<StepResult> steps = new ArrayList<>();
        double lo = 0;
        StepResult best = null;
        double hi = Double.NaN;
        double rate = capacityPerSecond;
        // down from the capacity until a step meets the SLO
        while (steps.size() < MAX_STEPS) {
            StepResult r = step.at(rate);
            steps.add(r);
            if (slo.metBy(r)) {
                lo = rate;
                best = r;
                break;
            }
            hi = rate;
            if (rate / 2 < capacityPerSecond * FLOOR) {
                return new Found(0, hi, r, steps);
            }
            rate /= 2;
        }
        if (best == null) {
            return new Found(0, hi, steps.get(steps.size() - 1), steps);
        }
        if (Double.isNaN(hi)) {
            // the capacity itself met it: one step above it to bound the search from the top
            rate = capacityPerSecond * 1.25;
            StepResult r = step.at(rate);
            steps.add(r);
            if (slo.metBy(r)) {
                return new Found(rate, Double.NaN, r, steps);
            }
            hi = rate;
        }
        while (steps.size() < MAX_STEPS && (hi - lo) / hi > RESOLUTION) {
            rate = (lo + hi) / 2;
            StepResult r = step.at(rate);
            steps.add(r);
            if (slo.metBy(r)) {
                lo = rate;
                best = r;
            } else {
                hi = rate;
            }
        }
        return new Found(lo, hi, best, steps);
    }
}

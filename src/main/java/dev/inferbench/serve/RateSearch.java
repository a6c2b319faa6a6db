package dev.inferbench.serve;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The highest arrival rate whose steps are shown to meet an SLO, found the way a load tester would by hand: from the
 * callers' closed-loop capacity (the most they serve back to back, no higher than the generator's top rate), halve
 * the rate until a step meets the SLO (or, when the capacity meets it, raise it {@value #ABOVE} x at a time until a
 * step does not), then bisect between the highest rate met and the lowest not met, until the two are within
 * {@value #RESOLUTION} of each other or {@value #MAX_RATES} rates were tried.
 *
 * <p>Four rules keep it sound. A step meets the SLO only when it is valid (the generator kept the schedule and the
 * callers the rate: {@link Validity}) and its percentile is met with confidence ({@link Slo#judge}); a step that
 * cannot tell is repeated at the same rate and the repeats pooled, up to {@value #MAX_REPEATS} steps, and a rate still
 * unsure counts as not met, so one noisy step cannot send the bisection above the knee. When the highest rate tried
 * met the SLO the result is a ceiling (the knee is at or above it), never a knee. And every rate's verdict is kept:
 * a rate met above one that was not (a non-monotone service, or noise the confidence did not catch) is counted and
 * shown, not hidden by the bisection. Last, the knee is stepped again from fresh steps; when that fails, the search
 * falls back to the next rate below that was met, or, when none was, steps down {@value #RESOLUTION} x 2 at a time
 * until one is (a few more rates at most), and the contradiction is counted.
 *
 * <p>The estimate is the bracket's lower end: a rate shown met. It is biased low, by up to {@value #RESOLUTION} of the
 * bracket's top from the bisection, and by the confidence margin (a rate whose true percentile is just under the
 * bound is unsure, so not met).
 */
public final class RateSearch {
    static final double RESOLUTION = 0.025;
    static final int MAX_RATES = 10;
    static final int MAX_REPEATS = 3;
    /** Rates a search may try in all: the bisection's, the knee again, and the steps down when it no longer holds. */
    static final int MAX_TRIES = MAX_RATES + 4;
    /** Below this share of the capacity the search stops halving: the SLO cannot be met at any useful rate. */
    static final double FLOOR = 1.0 / 64;
    /** When the capacity meets the SLO, the search steps up by this factor (up to the top) until a rate does not. */
    static final double ABOVE = 1.25;

    /** One step at one rate. */
    @FunctionalInterface
    public interface Step {
        StepResult at(double perSecond) throws Exception;
    }

    /**
     * One rate tried: its steps pooled, and their verdict; {@code invalid} says why an INVALID one was ("late",
     * "behind" or both, as the serving table does), "" otherwise.
     */
    public record Tried(double rate, Slo.Verdict verdict, StepResult pooled, int steps, String invalid) {
        public boolean met() {
            return verdict == Slo.Verdict.MET;
        }
    }

    /**
     * @param sustainable the highest rate shown to meet the SLO (0 when none did)
     * @param failing     the lowest rate above it that did not (NaN when none did)
     * @param ceiling     the highest rate the search could try met the SLO: {@code sustainable} is a lower bound
     * @param best        the pooled steps at {@code sustainable}, or at the lowest rate tried when none met the SLO
     * @param tried       every rate, in the order tried
     */
    public record Found(double sustainable, double failing, boolean ceiling, StepResult best, List<Tried> tried) {
        /** Steps run, repeats included. */
        public int steps() {
            return tried.stream().mapToInt(Tried::steps).sum();
        }

        /**
         * Pairs of tries whose verdicts no monotone service gives: a rate met at or above one that was not (the same
         * rate twice: the knee's confirmation failed).
         */
        public int nonMonotone() {
            int pairs = 0;
            for (Tried a : tried) {
                for (Tried b : tried) {
                    pairs += a != b && a.met() && !b.met() && a.rate() >= b.rate() ? 1 : 0;
                }
            }
            return pairs;
        }

        /**
         * What failed at {@code failing}, the rate that bounds the knee from above: the tries at that rate, last
         * first; null when no rate above the knee failed (a ceiling, or none met).
         */
        public Tried limit() {
            for (int i = tried.size() - 1; i >= 0; i--) {
                if (!tried.get(i).met() && tried.get(i).rate() == failing) {
                    return tried.get(i);
                }
            }
            return null;
        }

        /** "20000/s INVALID (late), 10000/s met, 15000/s unsure (3 steps)": every rate in the order tried. */
        public String trail() {
            List<String> parts = new ArrayList<>();
            for (Tried t : tried) {
                List<String> notes = new ArrayList<>();
                if (!t.invalid().isEmpty()) {
                    notes.add(t.invalid());
                }
                if (t.steps() > 1) {
                    notes.add(t.steps() + " steps");
                }
                parts.add(String.format(Locale.ROOT, "%.0f/s %s%s", t.rate(), t.verdict().name().toLowerCase(Locale.ROOT)
                        .replace("invalid", "INVALID"), notes.isEmpty() ? "" : " (" + String.join(", ", notes) + ")"));
            }
            return String.join(", ", parts);
        }
    }

    private RateSearch() {
    }

    /**
     * @param capacityPerSecond where the search starts: the callers' back-to-back rate
     * @param topPerSecond      the highest rate the search may try (the generator's limit)
     */
    public static Found find(Step step, Slo slo, double capacityPerSecond, double topPerSecond) throws Exception {
        List<Tried> tried = new ArrayList<>();
        double start = Math.min(capacityPerSecond, topPerSecond);
        double lo = 0;
        StepResult best = null;
        double hi = Double.NaN;
        double rate = start;
        while (tried.size() < MAX_RATES) { // down from the capacity until a rate meets the SLO
            Tried t = tryRate(step, slo, rate, tried);
            if (t.met()) {
                lo = rate;
                best = t.pooled();
                break;
            }
            hi = rate;
            if (rate / 2 < start * FLOOR) {
                break;
            }
            rate /= 2;
        }
        if (best == null) {
            return new Found(0, hi, false, tried.get(tried.size() - 1).pooled(), tried);
        }
        if (Double.isNaN(hi)) {
            // the start met it: step up {@value #ABOVE} x at a time, up to the top, until a rate fails and bounds the
            // search from above (a capacity read early in the fork can be well under what the service then serves)
            while (true) {
                double upper = Math.min(lo * ABOVE, topPerSecond);
                if (upper <= lo * (1 + RESOLUTION) || tried.size() >= MAX_RATES) {
                    return new Found(lo, Double.NaN, true, best, tried);
                }
                Tried t = tryRate(step, slo, upper, tried);
                if (!t.met()) {
                    hi = upper;
                    break;
                }
                lo = upper;
                best = t.pooled();
            }
        }
        while (tried.size() < MAX_RATES && (hi - lo) / hi > RESOLUTION) {
            rate = (lo + hi) / 2;
            Tried t = tryRate(step, slo, rate, tried);
            if (t.met()) {
                lo = rate;
                best = t.pooled();
            } else {
                hi = rate;
            }
        }
        // the knee again, from fresh steps: a lucky pass that lifted the bracket is unlikely to pass twice
        Tried again = tryRate(step, slo, lo, tried);
        if (again.met()) {
            return new Found(lo, hi, false, best, tried);
        }
        double below = tried.stream().filter(t -> t.met() && t.rate() < again.rate()).mapToDouble(Tried::rate).max()
                .orElse(0);
        if (below == 0) {
            // nothing below was met: the service slowed since (a shared machine's slow stretch), so step down from
            // the knee that no longer holds rather than report no rate at all
            for (double down = lo * (1 - 2 * RESOLUTION); down >= start * FLOOR && tried.size() < MAX_TRIES;
                 down *= 1 - 2 * RESOLUTION) {
                Tried t = tryRate(step, slo, down, tried);
                if (t.met()) {
                    return new Found(down, lo, false, t.pooled(), tried);
                }
            }
        }
        StepResult atBelow = tried.stream().filter(t -> t.met() && t.rate() == below).map(Tried::pooled).findFirst()
                .orElse(again.pooled());
        return new Found(below, lo, false, atBelow, tried);
    }

    /** Steps at one rate until their pooled verdict is sure, or {@value #MAX_REPEATS} steps were run. */
    private static Tried tryRate(Step step, Slo slo, double rate, List<Tried> tried) throws Exception {
        List<StepResult> steps = new ArrayList<>();
        StepResult pooled;
        Slo.Verdict verdict;
        do {
            steps.add(step.at(rate));
            pooled = StepResult.pool(steps);
            verdict = slo.judge(pooled);
        } while (verdict == Slo.Verdict.UNSURE && steps.size() < MAX_REPEATS);
        Validity v = Validity.of(pooled, slo);
        String invalid = verdict != Slo.Verdict.INVALID ? "" : v.tooLate() && v.fellBehind() ? "late+behind"
                : v.tooLate() ? "late" : "behind";
        Tried t = new Tried(rate, verdict, pooled, steps.size(), invalid);
        tried.add(t);
        return t;
    }
}

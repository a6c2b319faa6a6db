package dev.inferbench.findings;

import dev.inferbench.results.CellSummary;
import dev.inferbench.serve.ServingProfiler;

/**
 * How the forks of one serving cell ended. Each fork writes 1 or 0 for valid, SLO met and unsure, so the means over
 * forks the cell holds are shares, and a share times the forks is a count.
 *
 * @param validKnown whether the run measured validity at all (older runs did not)
 * @param valid      forks whose step was valid (all of them when not measured)
 * @param metShare   the share of forks that met the SLO, NaN when not measured
 * @param met        forks that met the SLO (0 when not measured)
 * @param late       some fork was invalid because arrivals were late
 * @param behind     some fork was invalid because the callers fell behind
 */
public record ForkOutcomes(int forks, boolean validKnown, long valid, double metShare, long met, long unsure,
                           boolean late, boolean behind) {

    public static ForkOutcomes of(CellSummary c) {
        int forks = c.mean().forks();
        Double valid = c.extras().get(ServingProfiler.VALID);
        double met = c.extras().getOrDefault(ServingProfiler.SLO_MET, Double.NaN);
        return new ForkOutcomes(forks, valid != null, Math.round((valid == null ? 1.0 : valid) * forks), met,
                Double.isNaN(met) ? 0 : Math.round(met * forks),
                Math.round(c.extras().getOrDefault(ServingProfiler.SLO_UNSURE, 0.0) * forks),
                c.extras().getOrDefault(ServingProfiler.INVALID_LATE, 0.0) > 0,
                c.extras().getOrDefault(ServingProfiler.INVALID_RATE, 0.0) > 0);
    }

    /** Whether every fork met the SLO. */
    public boolean metInEvery() {
        return metShare >= 1;
    }

    public long invalid() {
        return forks - valid;
    }
}

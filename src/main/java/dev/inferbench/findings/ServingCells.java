package dev.inferbench.findings;

import dev.inferbench.results.CellSummary;
import dev.inferbench.serve.ServingProfiler;
import dev.inferbench.serve.ServingSpec;

import java.util.Set;

/** What the serving table and the knees both ask of a serving cell: its setting, whether it searched, its rate. */
public final class ServingCells {
    private ServingCells() {
    }

    /** The cell's values of {@code keys} but the rate: cells of one setting differ only in their offered rate. */
    public static String setting(CellSummary c, Set<String> keys) {
        StringBuilder sb = new StringBuilder();
        for (String k : keys) {
            if (!k.equals(ServingSpec.RATE)) {
                sb.append(k).append('=').append(c.params().getOrDefault(k, "")).append('\u0000');
            }
        }
        return sb.toString();
    }

    /** A {@code rate=max} cell: each fork searched for the highest rate within the SLO. */
    public static boolean isSearch(CellSummary c) {
        return ServingSpec.MAX_RATE.equals(c.params().get(ServingSpec.RATE));
    }

    public static double offered(CellSummary c) {
        return c.extras().getOrDefault(ServingProfiler.OFFERED, Double.NaN);
    }
}

package dev.inferbench.report;

import dev.inferbench.metrics.ModelStatsProfiler;
import dev.inferbench.metrics.SamplesProfiler;

import java.util.Collection;
import java.util.Set;

/**
 * Whether a table names seqLen: only when some cell's model takes it. A fork records that its model's inputs have a
 * sequence dimension ({@code model.tokens}, and tokens/s); a model without one (an MLP, a CNN) runs the same at every
 * seqLen, so the param is no setting of its cells. Cells of an older build, without the model figures, keep it.
 * The one rule for the summary, the serving table, the reports and compare.
 */
final class SeqLenShown {
    private SeqLenShown() {
    }

    /** @param metricsPerCell each cell's metric names */
    static boolean of(Collection<? extends Set<String>> metricsPerCell) {
        return metricsPerCell.stream().anyMatch(m -> m.contains(ModelStatsProfiler.TOKENS)
                || m.contains(SamplesProfiler.TOKENS)
                || !m.contains(ModelStatsProfiler.MACS) && !m.contains(SamplesProfiler.PER_SAMPLE));
    }
}

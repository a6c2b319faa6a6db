package dev.inferbench.findings;

import dev.inferbench.results.CellSummary;

import java.util.List;

/**
 * Where throughput stops growing with the batch, for each setting (every param but the batch) measured at two or more
 * batch sizes: the smallest batch from which no larger batch serves more than {@value #GAIN_PERCENT} % more
 * samples/s, or none when it still rises at the largest batch measured. Means over forks, as the tables show them.
 *
 * @param byBatch the setting's cells in batch order
 * @param at      the index in {@code byBatch} where it saturates, -1 when it still rises
 */
public record Saturation(List<CellSummary> byBatch, int at) {
    public static final double GAIN_PERCENT = 10;

    /** One per setting with samples/s at two or more batch sizes. */
    public static List<Saturation> of(List<CellSummary> cells) {
        return BatchSeries.of(cells, c -> !Double.isNaN(c.samplesPerSecond())).stream().map(Saturation::find).toList();
    }

    private static Saturation find(List<CellSummary> byBatch) {
        for (int i = 0; i < byBatch.size() - 1; i++) {
            double here = byBatch.get(i).samplesPerSecond();
            double bestAfter = byBatch.subList(i + 1, byBatch.size()).stream()
                    .mapToDouble(CellSummary::samplesPerSecond).max().orElse(Double.NaN);
            if (bestAfter <= here * (1 + GAIN_PERCENT / 100)) {
                return new Saturation(byBatch, i);
            }
        }
        return new Saturation(byBatch, -1);
    }

    public boolean saturates() {
        return at >= 0;
    }

    /** How much more the largest batch serves than the one before it, in percent. */
    public double lastGainPercent() {
        int last = byBatch.size() - 1;
        return (byBatch.get(last).samplesPerSecond() / byBatch.get(last - 1).samplesPerSecond() - 1) * 100;
    }
}

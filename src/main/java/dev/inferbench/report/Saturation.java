package dev.inferbench.report;

import dev.inferbench.results.CellSummary;

import java.util.List;
import java.util.Locale;

/**
 * Where throughput stops growing with the batch, named in words for each setting (every param but the batch) measured
 * at two or more batch sizes: the smallest batch from which no larger batch serves more than {@value #GAIN_PERCENT} %
 * more samples/s ("saturates at batch 8"), or that it still rises at the largest batch measured. Means over forks,
 * as the table beside it shows them.
 */
final class Saturation {
    static final double GAIN_PERCENT = 10;

    private Saturation() {
    }

    static List<String> lines(List<CellSummary> cells) {
        return BatchSeries.of(cells, c -> !Double.isNaN(c.samplesPerSecond())).stream().map(s -> line(s, cells)).toList();
    }

    private static String line(List<CellSummary> byBatch, List<CellSummary> all) {
        String who = BatchSeries.who(byBatch.get(0), all);
        StringBuilder path = new StringBuilder();
        for (CellSummary c : byBatch) {
            path.append(path.length() == 0 ? "" : ", ").append(batch(c)).append(": ")
                    .append(SummaryTable.num(c.samplesPerSecond()));
        }
        int last = byBatch.size() - 1;
        for (int i = 0; i < last; i++) {
            double here = byBatch.get(i).samplesPerSecond();
            double bestAfter = byBatch.subList(i + 1, byBatch.size()).stream()
                    .mapToDouble(CellSummary::samplesPerSecond).max().orElse(Double.NaN);
            if (bestAfter <= here * (1 + GAIN_PERCENT / 100)) {
                return "throughput: " + who + " saturates at batch " + batch(byBatch.get(i)) + " (no larger batch serves"
                        + " " + (int) GAIN_PERCENT + " % more; samples/s by batch " + path + ")";
            }
        }
        double prev = byBatch.get(last - 1).samplesPerSecond();
        double gain = (byBatch.get(last).samplesPerSecond() / prev - 1) * 100;
        return String.format(Locale.ROOT, "throughput: %s still rises at batch %s (+%.0f %% over batch %s; samples/s by"
                + " batch %s)", who, batch(byBatch.get(last)), gain, batch(byBatch.get(last - 1)), path);
    }

    private static String batch(CellSummary c) {
        return Integer.toString(BatchSeries.batch(c));
    }
}

package dev.inferbench.commits;

import dev.inferbench.BenchException;
import dev.inferbench.compare.Comparer;
import dev.inferbench.compare.Comparison;
import dev.inferbench.compare.RunReader;
import dev.inferbench.results.jmh.MeasuredCell;
import dev.inferbench.stats.Interval;
import dev.inferbench.stats.Verdict;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What the ledger keeps of one comparison, read from its two run folders as {@code compare} reads them at the
 * README's CI settings (--precision 2 %, the pilot's 8 pairs, the default minimum effect, the time metric gated, or the one the comparison gated): the
 * gated row's pairs, ratio and interval, verdict and the pairs left out as disturbed. Each is "n/a" where the
 * comparison left none (no fork landed, an unpaired row, a bound too few pairs cannot give).
 */
record LedgerFigures(String pairs, String ratio, String lower, String upper, String verdict, String disturbed) {
    static final double PRECISION = 0.02;
    static final int PILOT = 8;
    private static final String NONE = "n/a";
    static final LedgerFigures UNKNOWN = new LedgerFigures(NONE, NONE, NONE, NONE, NONE, NONE);

    /**
     * @param folder the comparison's folder, holding {@code base} and {@code head}
     * @param gate   the metrics the comparison gated
     */
    static LedgerFigures of(Path folder, Set<String> gate) {
        try {
            Path base = folder.resolve("base");
            Path head = folder.resolve("head");
            List<MeasuredCell> baseCells = RunReader.readCells(base);
            List<MeasuredCell> headCells = RunReader.readCells(head);
            Comparer.Report report = Comparer.compare(RunReader.of(baseCells, base), RunReader.of(headCells, head),
                    Verdict.DEFAULT_MIN_EFFECT, Verdict.CONFIDENCE, gate, false, PILOT, PRECISION);
            Optional<Comparison> gated = report.rows().stream().filter(Comparison::gated).findFirst();
            return gated.map(LedgerFigures::of).orElse(UNKNOWN);
        } catch (BenchException | RuntimeException e) {
            return UNKNOWN; // a comparison that left no readable runs is still a line: its exit code says how it ended
        }
    }

    private static LedgerFigures of(Comparison row) {
        Interval ratio = row.ratio();
        return new LedgerFigures(row.paired() ? Integer.toString(row.pairs().count()) : NONE, figure(ratio.estimate()),
                figure(ratio.lower()), figure(ratio.upper()), row.verdictWord(),
                row.paired() ? Integer.toString(row.pairs().disturbed()) : NONE);
    }

    private static String figure(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? NONE : FixedPoint.of(v, 4);
    }

    List<String> fields() {
        return List.of(pairs, ratio, lower, upper, verdict, disturbed);
    }
}

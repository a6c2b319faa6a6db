package dev.inferbench.compare;

import dev.inferbench.results.Headline;
import dev.inferbench.BenchException;
import dev.inferbench.stats.ForkMeans;
import dev.inferbench.stats.Percentiles;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Absolute thresholds checked against a run's cells: what {@code --threshold} does after a run and with
 * {@code compare} (on the candidate). A threshold is checked against each selected cell's estimate (mean, or the
 * percentile of all calls); one that selects no cell with that metric is bad input, not a pass.
 */
public final class Gate {
    /** One threshold on one cell. */
    public record Check(Threshold threshold, CellKey cell, double actual, double limit, String unit, boolean passed) {
        public String line() {
            String value = Double.isNaN(actual) ? "n/a (too few calls for the percentile)"
                    : String.format(Locale.ROOT, "%.4g %s", actual, unit);
            return String.format(Locale.ROOT, "%s %s: %s = %s, limit %s %.4g %s", passed ? "pass" : "FAIL",
                    threshold.text(), cell.label(), value, threshold.op(), limit, unit);
        }
    }

    private Gate() {
    }

    public static List<Check> check(List<Threshold> thresholds, List<CellResults> cells) throws BenchException {
        List<Check> out = new ArrayList<>();
        for (Threshold t : thresholds) {
            int matched = 0;
            for (CellResults c : cells) {
                MetricSeries m = t.metricOf(c);
                if (m == null || !t.selects(c.key())) {
                    continue;
                }
                matched++;
                long calls = Arrays.stream(m.callsPerFork()).sum();
                // a percentile of too few calls is no figure to pass a gate on: the check fails, saying why
                double actual = !m.isPercentile() ? ForkMeans.interval(m.forks(), ForkMeans.DEFAULT_CONFIDENCE).estimate()
                        : calls >= Percentiles.callsFor(m.percentile()) ? new Percentiles(m.histograms()).estimate(m.percentile())
                        : Double.NaN;
                double limit = t.limitIn(m.unit());
                out.add(new Check(t, c.key(), actual, limit, m.unit(), t.passes(actual, limit)));
            }
            if (matched == 0) {
                throw new BenchException("threshold '" + t.text() + "' selects no cell with the metric '" + t.metric()
                        + "'; expected one of: " + String.join(", ", cells.isEmpty() ? List.of()
                        : cells.get(0).metrics().keySet()) + " and params of the run");
            }
        }
        return out;
    }

    /**
     * The end of a run with {@code --threshold}s: reads the run folder, prints one line per check and returns the
     * exit code (0 all passed, 1 some failed). Bad thresholds throw before anything is printed.
     */
    public static int afterRun(Path runDir, List<String> thresholds, PrintStream out) throws BenchException {
        List<Threshold> parsed = new ArrayList<>();
        for (String t : thresholds) {
            parsed.add(Threshold.parse(t));
        }
        // the gate reads the figures the summary shows: each cell's quiet forks
        List<Check> checks = check(parsed, RunReader.of(Headline.ofFolder(runDir, RunReader.readCells(runDir)).cells()));
        checks.forEach(c -> out.println("[inferbench] threshold " + c.line()));
        return checks.stream().allMatch(Check::passed) ? 0 : 1;
    }
}

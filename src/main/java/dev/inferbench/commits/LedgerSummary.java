package dev.inferbench.commits;

import dev.inferbench.BenchException;
import dev.inferbench.stats.BinomialRate;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The ledger's summary: per cell, mode, planted slowdown and budget, how many comparisons failed the gate, of those
 * that ended in a verdict (exit 0, 1 or 3), with the exact 95 % interval of that rate ({@link BinomialRate}). At
 * slowdown 0 the rate is the gate's false-alarm rate, above it its power at that slowdown. Comparisons that could
 * not tell are counted among the verdicts (they did not fail the gate) and also shown apart; those that ended in
 * anything else (a failure of the tool) are counted apart only.
 */
final class LedgerSummary {
    static final double CONFIDENCE = 0.95;

    /** What rows are counted together: one design of the gate at one planted slowdown. */
    record Group(String cell, String mode, int slowdown, String budget) {
        static final Comparator<Group> ORDER = Comparator.comparing(Group::cell).thenComparing(Group::mode)
                .thenComparingInt(Group::slowdown).thenComparing(Group::budget);
    }

    private LedgerSummary() {
    }

    /** @param kept the commits whose comparisons count; null for all */
    static List<String> lines(List<Map<String, String>> rows, Set<String> kept) throws BenchException {
        Map<Group, List<Map<String, String>>> groups = new TreeMap<>(Group.ORDER);
        for (Map<String, String> row : rows) {
            if (kept != null && !kept.contains(row.get("commit"))) {
                continue;
            }
            String pct = row.getOrDefault("slowdown_pct", "");
            if (!pct.matches("[0-9]{1,9}")) {
                throw new BenchException("ledger line with slowdown_pct '" + pct + "'; expected a whole percent");
            }
            groups.computeIfAbsent(new Group(row.getOrDefault("cell", ""),
                    row.getOrDefault("mode", ""), Integer.parseInt(pct), row.getOrDefault("budget", "")),
                    g -> new ArrayList<>()).add(row);
        }
        List<String> lines = new ArrayList<>();
        if (groups.isEmpty()) {
            lines.add("power-ledger: the ledger has no comparisons yet");
        }
        groups.forEach((g, members) -> lines.add(line(g, members)));
        return lines;
    }

    private static String line(Group g, List<Map<String, String>> rows) {
        List<Map<String, String>> verdicts = rows.stream().filter(r -> Set.of("0", "1", "3").contains(r.get("exit")))
                .toList();
        int failed = (int) verdicts.stream().filter(r -> r.get("exit").equals("1")).count();
        int unsure = (int) verdicts.stream().filter(r -> r.get("exit").equals("3")).count();
        int other = rows.size() - verdicts.size();
        int n = verdicts.size();
        String what = g.slowdown() == 0 ? "A/A" : "+" + g.slowdown() + " % planted";
        String head = g.cell() + ", " + g.mode() + ", " + what + ", budget " + g.budget() + ": ";
        if (n == 0) {
            return head + "no comparison ended in a verdict (" + other + " ended otherwise)";
        }
        BinomialRate rate = BinomialRate.exact(failed, n, CONFIDENCE);
        List<Integer> pairs = verdicts.stream().map(r -> r.get("pairs")).filter(p -> p.matches("[0-9]{1,9}"))
                .map(Integer::parseInt).sorted().toList();
        String median = pairs.isEmpty() ? "n/a" : Integer.toString(pairs.get(pairs.size() / 2));
        return head + failed + " of " + n + " failed the gate (" + FixedPoint.of(100.0 * failed / n, 0)
                + " %; exact 95 % interval " + FixedPoint.of(100 * rate.lower(), 1) + "-"
                + FixedPoint.of(100 * rate.upper(), 1) + " %); " + unsure + " could not tell; " + other
                + " ended otherwise; pairs: median " + median;
    }
}

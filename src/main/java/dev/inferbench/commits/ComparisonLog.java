package dev.inferbench.commits;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a comparison of commits printed, read back from its log: the table's header and the rows the gate judged, the
 * "where" tables under them, the ratio of the first row that failed the gate, and the line that says why a
 * comparison ended without a verdict. The log is what decided the step (the comparison's own table, at its own
 * settings), so the bisect shows that, rather than a second reading of the run folders that could differ from it.
 */
public final class ComparisonLog {
    private static final Pattern GATED = Pattern.compile("^cell .*|.*(FAIL|pass|can't tell)\\s*$");
    private static final Pattern FAILED = Pattern.compile(".*FAIL\\s*$");
    /** The ratio before its interval, e.g. the 1.395 of "1.395 [1.046, 1.862]". */
    private static final Pattern RATIO = Pattern.compile("([0-9]+\\.[0-9]+) \\[");

    private final List<String> lines;

    public ComparisonLog(String text) {
        this.lines = text.lines().toList();
    }

    /** The table's header line ("cell ...") and the rows the gate judged (ending FAIL, pass or can't tell). */
    public List<String> gatedRows() {
        return lines.stream().filter(l -> GATED.matcher(l).matches()).toList();
    }

    /** The first judged row, its runs of spaces made one: what a step's one line quotes; "" when none. */
    public String firstRow() {
        return gatedRows().stream().filter(l -> !l.startsWith("cell ")).findFirst().orElse("")
                .replaceAll(" +", " ");
    }

    /** Each "where: " line and the indented lines under it. */
    public List<String> whereTables() {
        List<String> shown = new ArrayList<>();
        boolean on = false;
        for (String l : lines) {
            if (l.startsWith("where: ")) {
                on = true;
                shown.add(l);
            } else if (on && l.startsWith("  ")) {
                shown.add(l);
            } else {
                on = false;
            }
        }
        return shown;
    }

    /** The ratio of the first gated row that failed the gate: the slowdown the comparison measured. */
    public Optional<Double> failedRatio() {
        for (String row : gatedRows()) {
            if (FAILED.matcher(row).matches()) {
                Matcher m = RATIO.matcher(row);
                return m.find() ? Optional.of(Double.parseDouble(m.group(1))) : Optional.empty();
            }
        }
        return Optional.empty();
    }

    /** Why it ended without a verdict: its first line naming compare-commits, else its last line. */
    public String reason() {
        return lines.stream().filter(l -> l.contains("compare-commits:")).findFirst()
                .orElse(lines.isEmpty() ? "" : lines.get(lines.size() - 1));
    }
}

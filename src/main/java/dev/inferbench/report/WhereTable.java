package dev.inferbench.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.inferbench.compare.Comparison;
import dev.inferbench.compare.Where;
import dev.inferbench.model.stats.LayerName;
import dev.inferbench.stats.Interval;
import dev.inferbench.stats.Verdict;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The "where" table of a gated row that reads slower, faster or could not tell: the operators whose change in ms per
 * call has an interval that excludes 0, largest first, with the module that holds most of it, both sides' times and
 * the share of the call's change each explains; every other operator summed in one line.
 */
public final class WhereTable {
    private WhereTable() {
    }

    /** Whether {@code compare} prints the where table of a row: gated, and not the same. */
    public static boolean shown(Comparison row) {
        return row.gated() && row.gateVerdict() != Verdict.SAME;
    }

    public static String text(String cell, Where w) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "where: %s, %d pairs of operator passes (%s %% intervals for the table as"
                        + " a whole)%n", cell, w.pairs(), percent(w.confidence())));
        Where.Change call = w.call();
        sb.append(String.format(Locale.ROOT, "  a call in the passes: %s ms -> %s ms, change %s%n", ms(call.baseMs()),
                ms(call.headMs()), change(call.change())));
        List<Where.Change> named = w.named();
        if (!named.isEmpty()) {
            List<List<String>> rows = new ArrayList<>();
            rows.add(List.of("  operator", "module", "base ms", "head ms", "change ms", "of the call's change"));
            for (Where.Change c : named) {
                rows.add(List.of("  " + c.name(), c.module().isEmpty() && c.name().equals(Where.OUTSIDE) ? ""
                                : LayerName.shown(c.module()), ms(c.baseMs()), ms(c.headMs()), change(c.change()),
                        share(c.share())));
            }
            sb.append(SummaryTable.layout(rows));
        }
        List<Where.Change> rest = w.unnamed();
        double restMs = rest.stream().mapToDouble(c -> c.change().estimate()).sum();
        if (named.isEmpty()) {
            sb.append(String.format(Locale.ROOT, "  nothing named: no operator's change has an interval that excludes 0"
                    + " (%d rows, %+.4f ms together, %s of the call's change)%n", rest.size(), restMs,
                    share(restMs / call.change().estimate())));
        } else if (!rest.isEmpty()) {
            sb.append(String.format(Locale.ROOT, "  %d other rows: %+.4f ms together (%s), none with an interval that"
                    + " excludes 0%n", rest.size(), restMs, share(restMs / call.change().estimate())));
        }
        return sb.toString();
    }

    /** The where of a row as JSON: every row, named or not. */
    public static void json(ObjectNode n, Where w) {
        n.put("pairs", w.pairs());
        n.put("confidence", w.confidence());
        change(n.putObject("call"), w.call());
        ArrayNode rows = n.putArray("operators");
        for (Where.Change c : w.rows()) {
            ObjectNode o = rows.addObject();
            o.put("operator", c.name());
            o.put("module", c.module());
            change(o, c);
            o.put("named", c.named());
        }
    }

    private static void change(ObjectNode o, Where.Change c) {
        number(o, "baseMs", c.baseMs());
        number(o, "headMs", c.headMs());
        ObjectNode d = o.putObject("changeMs");
        number(d, "estimate", c.change().estimate());
        number(d, "lower", c.change().lower());
        number(d, "upper", c.change().upper());
        d.put("confidence", c.change().confidence());
        number(o, "share", c.share());
    }

    private static void number(ObjectNode n, String name, double v) {
        if (Double.isFinite(v)) {
            n.put(name, v);
        } else {
            n.putNull(name);
        }
    }

    private static String change(Interval i) {
        if (!i.known()) {
            return String.format(Locale.ROOT, "%+.4f", i.estimate());
        }
        return String.format(Locale.ROOT, "%+.4f [%+.4f, %+.4f]", i.estimate(), i.lower(), i.upper());
    }

    private static String ms(double v) {
        return String.format(Locale.ROOT, "%.4f", v);
    }

    private static String share(double f) {
        return Double.isFinite(f) ? String.format(Locale.ROOT, "%.0f %%", f * 100) : "n/a";
    }

    private static String percent(double fraction) {
        return java.math.BigDecimal.valueOf(fraction * 100).stripTrailingZeros().toPlainString();
    }
}

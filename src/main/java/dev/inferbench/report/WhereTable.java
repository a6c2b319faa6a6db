package dev.inferbench.report;

import dev.inferbench.Numbers;
import dev.inferbench.Json;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.inferbench.compare.Comparison;
import dev.inferbench.compare.Where;
import dev.inferbench.compare.WhereFrames;
import dev.inferbench.model.stats.LayerName;
import dev.inferbench.stats.Interval;
import dev.inferbench.stats.Verdict;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The "where" table of a gated row that reads slower, faster or could not tell: the operators whose change in ms per
 * call has an interval that excludes 0, largest first, with the module that holds most of it, both sides' times and
 * the share of the call's change each explains with its interval at the row's confidence, then what the named rows
 * explain together with its interval (the call's change is uncertain too); every other operator summed in one line.
 * Under it, where the passes hold cpu samples, the same for the frame groups ({@link WhereFrames}: inferbench, the
 * binding and JNI, ORT's kernels, GC and JIT threads, other) and the JVM's heap bytes, GC and JIT time per call, base,
 * head and change.
 */
public final class WhereTable {
    private static final String FLAME_DIFF =
            "  differential flame graph of the passes (head against base; red: hotter in head): ";

    private WhereTable() {
    }

    /** Whether {@code compare} prints the where table of a row: gated, and not the same. */
    public static boolean shown(Comparison row) {
        return row.gated() && row.gateVerdict() != Verdict.SAME;
    }

    public static String text(String cell, Where w) {
        return text(cell, w, true);
    }

    /** @param flamePath whether the text ends with the differential flame graph's path (a page links it instead) */
    static String text(String cell, Where w, boolean flamePath) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "where: %s, %d pairs of operator passes (%s %% intervals for the table as"
                        + " a whole)%n", cell, w.pairs(), Numbers.percentText(w.confidence())));
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
                        shareOf(c.share())));
            }
            sb.append(SummaryTable.layout(rows));
            sb.append(together(named, w.namedShare(), w.confidence()));
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
        if (w.frames() != null) {
            frames(sb, w.frames(), call);
        }
        if (flamePath && w.frames() != null && w.frames().flameDiff() != null) {
            sb.append(FLAME_DIFF).append(w.frames().flameDiff()).append(System.lineSeparator());
        }
        return sb.toString();
    }

    /** One line: the named rows' summed change and the share of the call's change it explains, with its interval. */
    private static String together(List<Where.Change> named, Interval share, double confidence) {
        double ms = named.stream().mapToDouble(c -> c.change().estimate()).sum();
        String what = named.size() == 1 ? "the named row" : "the " + named.size() + " named rows together";
        if (share == null) {
            return "";
        }
        if (!share.known()) {
            return String.format(Locale.ROOT, "  %s: %+.4f ms, %s of the call's change, its interval unbounded: the"
                    + " call's change holds 0 at %s %%%n", what, ms, share(share.estimate()), Numbers.percentText(confidence));
        }
        return String.format(Locale.ROOT, "  %s: %+.4f ms, %s [%s, %s] of the call's change (%s %% interval,"
                        + " Fieller's: the call's change is uncertain too)%n", what, ms, share(share.estimate()),
                share(share.lower()), share(share.upper()), Numbers.percentText(confidence));
    }

    /** The second block: the frame groups' time per call, then the JVM's figures. */
    private static void frames(StringBuilder sb, WhereFrames f, Where.Change call) {
        sb.append(String.format(Locale.ROOT, "  by frame group: async-profiler's cpu samples (%s) of the same passes, a"
                + " group's time = its share of the samples x the pass's call time%n", f.engine()));
        List<Where.Change> named = f.named();
        if (!named.isEmpty()) {
            List<List<String>> rows = new ArrayList<>();
            rows.add(List.of("  frame group", "base ms", "head ms", "change ms", "of the call's change"));
            for (Where.Change c : named) {
                rows.add(List.of("  " + c.name(), ms(c.baseMs()), ms(c.headMs()), change(c.change()),
                        shareOf(c.share())));
            }
            sb.append(SummaryTable.layout(rows));
        }
        List<Where.Change> rest = f.unnamed();
        double restMs = rest.stream().mapToDouble(c -> c.change().estimate()).sum();
        if (named.isEmpty()) {
            sb.append(String.format(Locale.ROOT, "  no frame group named: none has a change whose interval excludes 0"
                    + " (%d groups, %+.4f ms together)%n", rest.size(), restMs));
        } else if (!rest.isEmpty()) {
            sb.append(String.format(Locale.ROOT, "  %d other groups (%s): %+.4f ms together (%s), none with an interval"
                    + " that excludes 0%n", rest.size(), String.join(", ", rest.stream().map(Where.Change::name).toList()),
                    restMs, share(restMs / call.change().estimate())));
        }
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("  the JVM in the passes", "base", "head", "change"));
        for (Where.Change c : f.jvm()) {
            boolean bytes = c.name().equals(WhereFrames.BYTES);
            rows.add(List.of("  " + c.name(), bytes ? whole(c.baseMs()) : ms(c.baseMs()),
                    bytes ? whole(c.headMs()) : ms(c.headMs()), bytes ? wholeChange(c.change()) : change(c.change())));
        }
        sb.append(SummaryTable.layout(rows));
    }

    /** The where of a row as JSON: every row, named or not. */
    public static void json(ObjectNode n, Where w) {
        n.put("pairs", w.pairs());
        n.put("confidence", w.confidence());
        change(n.putObject("call"), w.call());
        if (w.namedShare() != null) {
            interval(n.putObject("namedShare"), w.namedShare());
        }
        ArrayNode rows = n.putArray("operators");
        for (Where.Change c : w.rows()) {
            ObjectNode o = rows.addObject();
            o.put("operator", c.name());
            o.put("module", c.module());
            change(o, c);
            o.put("named", c.named());
        }
        WhereFrames f = w.frames();
        if (f != null) {
            ObjectNode fn = n.putObject("frames");
            fn.put("engine", f.engine());
            ArrayNode groups = fn.putArray("groups");
            for (Where.Change c : f.groups()) {
                ObjectNode o = groups.addObject();
                o.put("group", c.name());
                change(o, c);
                o.put("named", c.named());
            }
            ObjectNode jvm = fn.putObject("jvm");
            for (Where.Change c : f.jvm()) {
                ObjectNode o = jvm.putObject(c.name());
                Json.putNumber(o, "base", c.baseMs());
                Json.putNumber(o, "head", c.headMs());
                interval(o.putObject("change"), c.change());
            }
            if (f.flameDiff() != null) {
                fn.put("flameDiff", f.flameDiff().toString());
            }
        }
    }

    private static void change(ObjectNode o, Where.Change c) {
        Json.putNumber(o, "baseMs", c.baseMs());
        Json.putNumber(o, "headMs", c.headMs());
        interval(o.putObject("changeMs"), c.change());
        Json.putNumber(o, "share", c.share().estimate());
        ObjectNode s = o.putObject("shareInterval");
        Json.putNumber(s, "lower", c.share().lower());
        Json.putNumber(s, "upper", c.share().upper());
        s.put("confidence", c.share().confidence());
    }

    private static void interval(ObjectNode d, Interval i) {
        Json.putNumber(d, "estimate", i.estimate());
        Json.putNumber(d, "lower", i.lower());
        Json.putNumber(d, "upper", i.upper());
        d.put("confidence", i.confidence());
    }

    private static String change(Interval i) {
        return signed(i, "%+.4f");
    }

    /** The estimate, and where it is known its interval, each in {@code format}. */
    private static String signed(Interval i, String format) {
        return i.known() ? String.format(Locale.ROOT, format + " [" + format + ", " + format + "]", i.estimate(),
                i.lower(), i.upper()) : String.format(Locale.ROOT, format, i.estimate());
    }

    private static String whole(double v) {
        return String.format(Locale.ROOT, "%.0f", v);
    }

    private static String wholeChange(Interval i) {
        return signed(i, "%+.0f");
    }

    private static String ms(double v) {
        return String.format(Locale.ROOT, "%.4f", v);
    }

    /**
     * A row's share with its interval: {@code 74 % [52, 101]}; {@code 74 % [unbounded]} where the call's change holds 0
     * at the row's confidence, so that no share is ruled out.
     */
    private static String shareOf(Interval share) {
        if (!share.known()) {
            return share(share.estimate()) + " [unbounded]";
        }
        return String.format(Locale.ROOT, "%s [%.0f, %.0f]", share(share.estimate()), share.lower() * 100,
                share.upper() * 100);
    }

    private static String share(double f) {
        return Double.isFinite(f) ? String.format(Locale.ROOT, "%.0f %%", f * 100) : "n/a";
    }
}

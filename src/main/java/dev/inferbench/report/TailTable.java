package dev.inferbench.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.inferbench.AtomicFile;
import dev.inferbench.Json;
import dev.inferbench.cell.BenchmarkNames;
import dev.inferbench.cell.Cell;
import dev.inferbench.compare.TailShift;
import dev.inferbench.results.CellSummary;
import dev.inferbench.tail.Cause;
import dev.inferbench.tail.TailMetrics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Each {@code --tail} cell's tail table, from its summary (the forks' tail figures, each with its interval over the
 * forks): one line for the summary, {@code p99 44.0 ms: 62 % GC pauses, 20 % descheduled, 18 % unexplained}, and the
 * whole table in the run's {@code tail/tail.json}: per cause the share of the calls above p99 and of the slowest ten
 * whose main cause it is, and the p99 without the calls given it.
 */
public final class TailTable {
    static final String FILE = "tail.json";
    /** Shares below this (%) are left out of the line; the JSON has them all. */
    private static final double SHOWN_FROM = 0.5;
    private static final ObjectMapper JSON = Json.mapper(Json.Option.PRETTY);
    /** The parameters a line names its cell by; tail.json has them all. */
    private static final List<String> LABEL_PARAMS = List.of("model", "engine", "batchSize");
    /** compare's line names at most this many causes that moved; it says how many more did. */
    static final int MOVES_SHOWN = 2;

    private TailTable() {
    }

    /** Whether the cell was measured with {@code --tail}. */
    static boolean has(CellSummary s) {
        return s.extras().containsKey(TailMetrics.P99);
    }

    /** A line per {@code --tail} cell, in the summary's order. */
    public static List<String> lines(List<CellSummary> cells) {
        List<String> out = new ArrayList<>();
        for (CellSummary s : cells) {
            if (has(s)) {
                out.add("tail    " + label(s) + ": " + line(s));
            }
        }
        return out;
    }

    /** {@code p99 44.0 ms: 62 % GC pauses (± 9), 18 % unexplained; without GC pauses p99 24.1 ms}. */
    static String line(CellSummary s) {
        Map<String, Double> x = s.extras();
        double calls = x.getOrDefault(TailMetrics.CALLS, Double.NaN);
        // the p99 the shares are of: each fork's own, their mean
        String p99 = "p99 " + num(x.getOrDefault(TailMetrics.P99, Double.NaN)) + " ms";
        if (!(calls > 0)) {
            // an open-loop step's calls are its requests' service calls: more requests, not more iterations
            boolean steps = BenchmarkNames.inClass(s.benchmark(), BenchmarkNames.SERVING)
                    || BenchmarkNames.inClass(s.benchmark(), BenchmarkNames.GENERATION_LOAD);
            return p99 + ": n/a (a fork's p99 needs 100 calls; its tail is its maximum: give each fork more"
                    + (steps ? " requests a step, e.g. -p requests=2000)" : " measured calls, e.g. -i 5 -r 1s)");
        }
        List<String> columns = new ArrayList<>(Cause.columns());
        columns.sort(Comparator.comparing((String c) -> c.equals(Cause.UNEXPLAINED))
                .thenComparing(c -> -x.getOrDefault(TailMetrics.share(c), 0.0)));
        List<String> parts = new ArrayList<>();
        for (String c : columns) {
            double share = x.getOrDefault(TailMetrics.share(c), Double.NaN);
            if (share >= SHOWN_FROM || c.equals(Cause.UNEXPLAINED) && parts.isEmpty()) {
                double hw = x.getOrDefault(CellSummary.halfWidth(TailMetrics.share(c)), Double.NaN);
                Cause cause = Cause.of(c);
                parts.add(String.format(Locale.ROOT, "%.0f %%", share) + " " + (cause == null ? c : cause.words())
                        + (Double.isFinite(hw) ? String.format(Locale.ROOT, " (± %.0f)", hw) : ""));
            }
        }
        StringBuilder sb = new StringBuilder(p99).append(": ").append(String.join(", ", parts));
        Cause main = Cause.of(columns.get(0));
        if (main != null && x.getOrDefault(TailMetrics.share(main.key()), 0.0) >= SHOWN_FROM) {
            sb.append("; without ").append(main.words()).append(" p99 ")
                    .append(num(x.getOrDefault(TailMetrics.without(main), Double.NaN))).append(" ms");
        }
        // a generation cell's calls are its cached steps, one token each (its inter-token latencies)
        String unit = BenchmarkNames.inClass(s.benchmark(), BenchmarkNames.GENERATION) ? "tokens" : "calls";
        return sb.append(String.format(Locale.ROOT, " (%.0f %s above p99 a fork)", calls, unit)).toString();
    }

    /**
     * compare's one line for a cell both runs measured with {@code --tail}, or null when its shares are the same:
     * {@code p99 31.2 -> 44.0 ms; GC pauses 10 % -> 62 % (+52 points, 99.3 % interval +31 to +73 over 5 pairs)},
     * the causes that moved beyond their interval (at most {@value #MOVES_SHOWN}, the largest first), else "no cause
     * moved beyond noise" with the largest change and its interval.
     */
    public static String compareLine(TailShift t, String label) {
        if (!t.differs()) {
            return null;
        }
        StringBuilder sb = new StringBuilder("tail    " + label + ": p99 " + num(t.baseP99()) + " -> "
                + num(t.headP99()) + " ms; ");
        List<TailShift.Share> moved = t.moved();
        if (!t.told()) {
            TailShift.Share any = t.shares().get(0);
            return sb.append("could not tell which cause moved: ").append(any.baseForks()).append(" and ")
                    .append(any.headForks()).append(" forks with a tail table (an interval needs 2 a side)").toString();
        }
        if (moved.isEmpty()) {
            TailShift.Share largest = t.shares().stream().filter(x -> x.change().known()).findFirst().orElseThrow();
            return sb.append("no cause moved beyond noise (largest: ").append(share(largest, t)).append(")")
                    .toString();
        }
        List<String> parts = new ArrayList<>();
        for (TailShift.Share m : moved.subList(0, Math.min(MOVES_SHOWN, moved.size()))) {
            parts.add(share(m, t));
        }
        if (moved.size() > MOVES_SHOWN) {
            parts.add((moved.size() - MOVES_SHOWN) + " more moved");
        }
        return sb.append(String.join("; ", parts)).toString();
    }

    /** {@code GC pauses 10 % -> 62 % (+52 points, 99.3 % interval +31 to +73 over 5 pairs)}. */
    private static String share(TailShift.Share s, TailShift t) {
        Cause cause = Cause.of(s.cause());
        String over = t.paired() ? s.change().forks() + " pairs" : s.baseForks() + " and " + s.headForks() + " forks";
        return (cause == null ? s.cause() : cause.words()) + String.format(Locale.ROOT,
                " %.0f %% -> %.0f %% (%+.0f points, %.1f %% interval %+.0f to %+.0f over %s)", s.base(), s.head(),
                s.change().estimate(), 100 * s.change().confidence(),
                s.change().lower(), s.change().upper(), over);
    }

    /** Writes {@code tail/tail.json} of the run when a cell has a tail table. */
    public static void write(Path runDir, List<CellSummary> cells) throws IOException {
        ArrayNode list = JSON.createArrayNode();
        for (CellSummary s : cells) {
            if (!has(s)) {
                continue;
            }
            ObjectNode cell = list.addObject();
            cell.put("benchmark", s.benchmark());
            ObjectNode params = cell.putObject("params");
            s.params().forEach(params::put);
            Json.putNumber(cell, "p99", s.p99());
            cell.put("unit", s.unit());
            figure(cell, "forkP99Ms", s, TailMetrics.P99);
            figure(cell, "callsAboveP99", s, TailMetrics.CALLS);
            figure(cell, "missed", s, TailMetrics.MISSED);
            ObjectNode shares = cell.putObject("aboveP99");
            ObjectNode top = cell.putObject("slowest" + TailMetrics.TOP);
            for (String c : Cause.columns()) {
                figure(shares, c, s, TailMetrics.share(c));
                figure(top, c, s, TailMetrics.top(c));
            }
            ObjectNode without = cell.putObject("p99WithoutMs");
            for (Cause c : Cause.values()) {
                figure(without, c.key(), s, TailMetrics.without(c));
            }
            if (s.extras().containsKey(TailMetrics.PLANTED_HIT)) {
                figure(cell, "plantedHit", s, TailMetrics.PLANTED_HIT);
                figure(cell, "unplantedCaused", s, TailMetrics.UNPLANTED_CAUSED);
            }
            cell.put("line", line(s));
        }
        if (list.isEmpty()) {
            return;
        }
        Path dir = runDir.resolve(dev.inferbench.results.RunLayout.TAIL);
        Files.createDirectories(dir);
        AtomicFile.write(dir.resolve(FILE), out -> JSON.writeValue(out, list));
    }

    /** {@code name: {"mean": ..., "halfWidth95": ...}}, the forks' mean and its 95 % half-width. */
    private static void figure(ObjectNode node, String name, CellSummary s, String metric) {
        ObjectNode f = node.putObject(name);
        Json.putNumber(f, "mean", s.extras().getOrDefault(metric, Double.NaN));
        Json.putNumber(f, "halfWidth95", s.extras().getOrDefault(CellSummary.halfWidth(metric), Double.NaN));
    }

    static String label(CellSummary s) {
        StringBuilder sb = new StringBuilder(s.benchmark());
        for (String k : LABEL_PARAMS) {
            String v = s.params().get(k);
            if (v != null && !Cell.unset(k, v)) {
                sb.append(' ').append(k).append('=').append(v);
            }
        }
        return sb.toString();
    }

    /** A ms figure with three significant digits or more, {@code n/a} where it is not a number. */
    static String num(double v) {
        if (!Double.isFinite(v)) {
            return "n/a";
        }
        return String.format(Locale.ROOT, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : v >= 1 ? "%.2f" : "%.3f", v);
    }
}

package dev.inferbench.report;

import dev.inferbench.Json;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.inferbench.compare.CellKey;
import dev.inferbench.compare.Comparer;
import dev.inferbench.compare.Comparison;
import dev.inferbench.compare.Missing;
import dev.inferbench.compare.SideEngines;
import dev.inferbench.compare.Where;
import dev.inferbench.stats.Interval;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The result of {@code compare} as JSON, for CI tools: every row with its intervals, the one-sided cells, and under
 * {@code missing} each gated cell or metric one side lacks, with that side ({@code lacking}: baseline or candidate).
 */
public final class CompareJson {
    private static final ObjectMapper JSON = Json.mapper(Json.Option.PRETTY);

    private CompareJson() {
    }

    public static void write(Comparer.Report report, OutputStream out) throws IOException {
        write(report, Map.of(), out);
    }

    /** @param where per cell, where its time changed by operator ({@link WhereTable}); written on its gated row */
    public static void write(Comparer.Report report, Map<CellKey, Where> where, OutputStream out) throws IOException {
        write(report, where, new SideEngines(Map.of(), Map.of()), out);
    }

    /**
     * @param engines each side's engine versions as its run loaded them, written as {@code sides.base.engines} and
     *                {@code sides.head.engines} (left out for a side that recorded none)
     */
    public static void write(Comparer.Report report, Map<CellKey, Where> where, SideEngines engines, OutputStream out)
            throws IOException {
        ObjectNode root = JSON.createObjectNode();
        if (!engines.base().isEmpty() || !engines.head().isEmpty()) {
            ObjectNode sides = root.putObject("sides");
            side(sides, "base", engines.base());
            side(sides, "head", engines.head());
        }
        root.put("minEffect", report.minEffect());
        root.put("confidence", report.confidence());
        root.putArray("gate").addAll(report.gate().stream().sorted().map(root::textNode).toList());
        root.put("gateRows", report.family());
        root.put("gateConfidence", report.gateConfidence());
        ArrayNode rows = root.putArray("comparisons");
        for (Comparison r : report.rows()) {
            ObjectNode n = rows.addObject();
            cell(n, r.cell());
            n.put("metric", r.metric());
            n.put("unit", r.unit());
            n.put("direction", r.direction().name().toLowerCase(Locale.ROOT).replace('_', '-'));
            interval(n.putObject("baseline"), r.baseline());
            interval(n.putObject("candidate"), r.candidate());
            interval(n.putObject("ratio"), r.ratio());
            n.put("ratioMethod", r.paired() ? "paired" : "welch");
            if (r.paired()) {
                n.put("pairs", r.pairs().count());
                n.put("disturbed", r.pairs().disturbed()); // pairs left out: the machine was disturbed in one fork
            }
            n.put("verdict", r.verdictWord());
            if (r.gated()) {
                n.put("gate", CompareTable.gate(r));
                if (where.containsKey(r.cell())) {
                    WhereTable.json(n.putObject("where"), where.get(r.cell()));
                }
            }
        }
        keys(root.putArray("onlyBaseline"), report.onlyBaseline());
        keys(root.putArray("onlyCandidate"), report.onlyCandidate());
        ArrayNode missing = root.putArray("missing"); // what the gate counts as could not tell
        for (Missing m : report.missing()) {
            ObjectNode n = missing.addObject();
            cell(n, m.cell());
            if (!m.wholeCell()) {
                n.put("metric", m.metric());
            }
            n.put("lacking", m.lackingSide());
        }
        out.write(JSON.writeValueAsBytes(root));
        out.write('\n');
        out.flush();
    }

    private static void side(ObjectNode sides, String name, Map<String, String> engines) {
        if (!engines.isEmpty()) {
            ObjectNode e = sides.putObject(name).putObject("engines");
            engines.forEach(e::put);
        }
    }

    private static void cell(ObjectNode n, CellKey k) {
        n.put("benchmark", k.benchmark());
        if (!k.mode().isEmpty()) {
            n.put("mode", k.mode()); // only when the cell was measured in several modes
        }
        ObjectNode p = n.putObject("params");
        k.params().forEach(p::put);
    }

    private static void keys(ArrayNode a, List<CellKey> keys) {
        keys.forEach(k -> cell(a.addObject(), k));
    }

    /** NaN bounds (too few forks) are written as null: JSON has no NaN. */
    private static void interval(ObjectNode n, Interval i) {
        Json.putNumber(n, "estimate", i.estimate());
        Json.putNumber(n, "lower", i.lower());
        Json.putNumber(n, "upper", i.upper());
        n.put("forks", i.forks());
    }
}

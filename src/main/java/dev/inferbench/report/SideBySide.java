package dev.inferbench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Several runs (hosts, dates) side by side: per model, one row per cell and one column per run, headed by the
 * run and the CPU it ran on, holding the mean; the fastest run of each row marked. Made only for two runs or more.
 */
final class SideBySide {
    private final ReportTable table;
    private final List<ReportInput.Run> runs;

    SideBySide(ReportTable table, List<ReportInput.Run> runs) {
        this.table = table;
        this.runs = runs;
    }

    static boolean applies(ReportInput input) {
        return input.runs().size() > 1;
    }

    List<String> header() {
        List<String> h = new ArrayList<>(List.of("benchmark"));
        h.addAll(table.params());
        for (ReportInput.Run run : runs) {
            String cpu = run.environment().get("cpu.model");
            h.add(run.label() + (cpu == null ? "" : " (" + cpu + ")") + " mean (" + table.unit() + ")");
        }
        return h;
    }

    /** Per cell (benchmark, mode, params), its values in header order. */
    List<List<ReportTable.Value>> rows() {
        Map<String, Map<String, ReportRow>> byCell = new LinkedHashMap<>();
        for (ReportRow r : table.rows()) {
            byCell.computeIfAbsent(r.benchmark() + " " + r.mode() + " " + r.params(), k -> new LinkedHashMap<>())
                    .put(r.run(), r);
        }
        List<List<ReportTable.Value>> out = new ArrayList<>();
        for (Map<String, ReportRow> cell : byCell.values()) {
            ReportRow any = cell.values().iterator().next();
            List<ReportTable.Value> v = new ArrayList<>();
            v.add(new ReportTable.Value(any.benchmark(), false, false));
            table.params().forEach(p -> v.add(new ReportTable.Value(any.params().getOrDefault(p, ""), false, false)));
            double best = cell.values().stream().mapToDouble(r -> Units.convert(r.mean(), r.unit(), table.unit()))
                    .filter(d -> !Double.isNaN(d)).reduce(any.isTime() ? Math::min : Math::max).orElse(Double.NaN);
            for (ReportInput.Run run : runs) {
                ReportRow r = cell.get(run.label());
                double mean = r == null ? Double.NaN : Units.convert(r.mean(), r.unit(), table.unit());
                v.add(new ReportTable.Value(Units.format(mean), cell.size() > 1 && mean == best, true));
            }
            out.add(v);
        }
        return out;
    }
}

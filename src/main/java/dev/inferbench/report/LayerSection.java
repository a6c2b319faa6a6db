package dev.inferbench.report;

import dev.inferbench.ByteUnits;
import dev.inferbench.BenchException;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.model.stats.ActivationMemory;
import dev.inferbench.model.stats.LayerName;
import dev.inferbench.profile.ActivationPass;
import dev.inferbench.profile.LayerTimes;
import dev.inferbench.profile.OpProfilePass;
import dev.inferbench.profile.OrtArena;
import dev.inferbench.results.RunLayout;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.stream.IntStream;
import java.util.Locale;
import java.util.Map;

/**
 * The report's per-layer section, one part per model of each run: the activation memory the run folder holds
 * ({@code layers/}, from the graph: the peak and where it happens, the modules that hold the most), and where an
 * {@code ort} cell was profiled ({@code op-profile/<cell>/layers.json}) the layers and modules by time with ORT's
 * own arena figures beside the graph's. Nothing when the folder holds neither.
 */
final class LayerSection {
    static final int TOP = 10;

    /** A table: a caption, a header, rows of text; {@code numeric} marks right-aligned columns. */
    record Table(String caption, List<String> header, List<List<String>> rows, boolean[] numeric) {
        List<List<ReportTable.Value>> values() {
            return rows.stream().map(r -> IntStream.range(0, r.size())
                    .mapToObj(i -> new ReportTable.Value(r.get(i), false, numeric[i])).toList()).toList();
        }
    }

    /**
     * One model of one run.
     *
     * @param entries its activation memory at each batch, seqLen and precision measured
     * @param times   the node-level profile of its first profiled ort cell (at {@code timesBatch}), or null
     */
    record Part(String title, List<String> lines, List<Table> tables, List<ActivationPass.Entry> entries,
                LayerTimes times, int timesBatch) {
    }

    private final List<Part> parts;

    private LayerSection(List<Part> parts) {
        this.parts = parts;
    }

    List<Part> parts() {
        return parts;
    }

    static LayerSection of(ReportInput input, List<ReportRow> rows) {
        List<Part> parts = new ArrayList<>();
        for (ReportInput.Run run : input.runs()) {
            Map<String, List<ActivationPass.Entry>> byModel = new LinkedHashMap<>();
            ActivationPass.read(run.dir()).forEach(e -> byModel.computeIfAbsent(e.model(), m -> new ArrayList<>()).add(e));
            Map<String, ReportRow> profiled = new LinkedHashMap<>();
            rows.stream().filter(r -> r.run().equals(run.label()) && r.params().containsKey(CellSpec.MODEL))
                    .filter(r -> Files.isRegularFile(times(run.dir(), r)))
                    .sorted(Comparator.comparingInt(LayerSection::batch))
                    .forEach(r -> profiled.putIfAbsent(r.params().get(CellSpec.MODEL), r));
            profiled.keySet().forEach(m -> byModel.putIfAbsent(m, List.of()));
            String suffix = input.runs().size() > 1 ? " (" + run.label() + ")" : "";
            byModel.forEach((model, entries) -> parts.add(part(model + suffix, entries, profiled.get(model), run.dir())));
        }
        return new LayerSection(parts);
    }

    private static Part part(String title, List<ActivationPass.Entry> entries, ReportRow profiled, Path runDir) {
        List<String> lines = new ArrayList<>();
        List<Table> tables = new ArrayList<>();
        entries.forEach(e -> lines.add(ActivationPass.line(e.model(), e.memory()) + " (" + e.precision() + ")"));
        if (!entries.isEmpty()) {
            lines.add("From the graph as written: each intermediate tensor from its producer to its last consumer, "
                    + "in the file's node order; graph inputs, weights and constants not counted; views (Reshape, "
                    + "Flatten, Squeeze, Unsqueeze) share their input's memory.");
            ActivationPass.Entry first = entries.get(0);
            tables.add(memoryTable(first));
        }
        LayerTimes times = null;
        if (profiled != null) {
            try {
                times = LayerTimes.read(times(runDir, profiled));
            } catch (BenchException damaged) {
                lines.add("The node-level profile of " + profiled.label() + " could not be read: " + damaged.getMessage());
            }
        }
        if (times != null) {
            ActivationMemory same = entries.stream().filter(e -> sameInput(e, profiled))
                    .map(ActivationPass.Entry::memory).findFirst().orElse(null);
            lines.add(String.format(Locale.ROOT, "ONNX Runtime's node-level profile of %s: %.3f ms of kernels per "
                    + "run over %d runs.", times.cell(), times.kernelMs(), times.runs()));
            if (times.arena() != null) {
                lines.add(arenaLine(times.arena(), same));
            }
            tables.add(layerTable(times));
            tables.add(moduleTable(times, same));
        }
        return new Part(title, lines, tables, entries, times, profiled == null ? 0 : batch(profiled));
    }

    private static String arenaLine(OrtArena a, ActivationMemory graph) {
        String compare = graph == null ? "" : "; the graph as written, at the same batch: "
                + ActivationPass.size(graph.peakBetweenNodesBytes()) + " live between two nodes at most (what the "
                + "arena's figure after each kernel compares with), " + ActivationPass.size(graph.peakBytes())
                + " while a node runs";
        return "ONNX Runtime's arena in the session's first run (the graph after its fusions): live intermediates "
                + "peaked at " + ActivationPass.size(a.livePeakBytes()) + " after " + a.livePeakNode()
                + ", high-water mark " + ActivationPass.size(a.highWaterBytes()) + " with kernel scratch and bin "
                + "rounding (" + ActivationPass.size(a.baselineBytes()) + " in use before the first kernel taken off)"
                + compare + ".";
    }

    private static Table memoryTable(ActivationPass.Entry e) {
        ActivationMemory m = e.memory();
        List<List<String>> rows = m.modules().stream()
                .sorted(Comparator.comparingLong(ActivationMemory.Module::peakBytes).reversed()).limit(TOP) // ties: in order
                .map(x -> List.of(LayerName.shown(x.module()), Integer.toString(x.nodes()), mb(x.allocatedBytes()),
                        mb(x.peakBytes()), x.peakNode())).toList();
        return new Table(String.format(Locale.ROOT, "Modules by activation memory at batch %d%s (%s), "
                        + "largest peak first", m.batch(), m.sequence() ? ", seqLen " + m.seqLen() : "", e.precision()),
                List.of("module", "nodes", "allocated MiB", "peak live MiB", "peak while"), rows,
                new boolean[]{false, true, true, true, false});
    }

    private static Table layerTable(LayerTimes t) {
        List<List<String>> rows = t.layers().stream().limit(TOP).map(l -> List.of(l.layer(),
                LayerName.shown(l.module()), l.operator(), ms(l.msPerRun()), percent(l.share()))).toList();
        return new Table("Layers by time (ORT's nodes, named by the file's node they came from; Conv\u2026Relu: ORT's "
                + "Conv kernel, fused up to the file's Relu whose output it writes)",
                List.of("layer", "module", "operator", "ms per run", "share"), rows,
                new boolean[]{false, false, false, true, true});
    }

    private static Table moduleTable(LayerTimes t, ActivationMemory graph) {
        Map<String, Long> peaks = new LinkedHashMap<>();
        if (graph != null) {
            graph.modules().forEach(m -> peaks.put(m.module(), m.peakBytes()));
        }
        List<List<String>> rows = t.modules().stream().limit(TOP).map(m -> List.of(LayerName.shown(m.module()),
                Integer.toString(m.layers()), ms(m.msPerRun()), percent(m.share()),
                peaks.containsKey(m.module()) ? mb(peaks.get(m.module())) : "")).toList();
        return new Table("Modules by time", List.of("module", "ORT nodes", "ms per run", "share", "peak live MiB"),
                rows, new boolean[]{false, true, true, true, true});
    }

    void markdown(PrintWriter out) {
        for (Part p : parts) {
            out.println("\n## Per layer: " + MarkdownReport.escape(p.title()) + "\n");
            p.lines().forEach(l -> out.println(MarkdownReport.escape(l) + "\n"));
            p.tables().stream().filter(t -> !t.rows().isEmpty()).forEach(t -> {
                out.println(MarkdownReport.escape(t.caption()) + ":\n");
                MarkdownReport.table(out, t.header(), t.values());
                out.println();
            });
        }
    }

    void html(PrintWriter out) {
        for (Part p : parts) {
            out.println("<h2>Per layer: " + HtmlReport.escape(p.title()) + "</h2>");
            p.lines().forEach(l -> out.println("<p>" + HtmlReport.escape(l) + "</p>"));
            p.tables().stream().filter(t -> !t.rows().isEmpty()).forEach(t -> HtmlReport.table(out,
                    "<p>" + HtmlReport.escape(t.caption()) + ":</p>", t.header(), t.values()));
        }
    }

    private static Path times(Path runDir, ReportRow r) {
        return RunLayout.of(runDir).opProfile().resolve(r.cellId()).resolve(OpProfilePass.LAYERS_JSON);
    }

    /** The entry is of the graph the cell ran: its batch, seqLen and precision. */
    private static boolean sameInput(ActivationPass.Entry e, ReportRow r) {
        return e.memory().batch() == batch(r)
                && Integer.toString(e.memory().seqLen()).equals(r.params().getOrDefault(CellSpec.SEQ_LEN, "128"))
                && e.precision().equals(r.params().getOrDefault(CellSpec.PRECISION, "fp32"));
    }

    private static int batch(ReportRow r) {
        try {
            return Integer.parseInt(r.params().getOrDefault(CellSpec.BATCH_SIZE, "1"));
        } catch (NumberFormatException e) {
            return Integer.MAX_VALUE;
        }
    }

    static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.2f", ByteUnits.mib(bytes));
    }

    private static String ms(double ms) {
        return String.format(Locale.ROOT, "%.3f", ms);
    }

    private static String percent(double share) {
        return String.format(Locale.ROOT, "%.1f %%", share * 100);
    }
}

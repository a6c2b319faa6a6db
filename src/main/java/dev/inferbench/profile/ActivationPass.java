package dev.inferbench.profile;

import dev.inferbench.Json;
import dev.inferbench.cell.BenchmarkNames;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.inferbench.BenchException;
import dev.inferbench.ByteUnits;
import dev.inferbench.cell.Cell;
import dev.inferbench.cell.VaryingParams;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.model.stats.ActivationMemory;
import dev.inferbench.results.RunLayout;
import dev.inferbench.AtomicFile;
import dev.inferbench.variant.Variants;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * After the timed run, the activation memory per layer ({@link ActivationMemory}) of each model file the
 * inference cells ran, at each batch and seqLen, into {@code layers/} of the run folder, so that a report made from
 * the folder later needs no model file. Reading the graph without its weights takes well under a second.
 */
public final class ActivationPass {
    private static final ObjectMapper JSON = Json.mapper(Json.Option.LENIENT);

    /** One graph at one input size: what {@code layers/activation-*.json} holds. */
    public record Entry(String model, String precision, ActivationMemory memory) {
    }

    private ActivationPass() {
    }

    public static void run(List<Cell> cells, BenchConfig config, Path runDir, PrintStream out) {
        Set<Path> done = new HashSet<>();
        // two lines of one model at one batch tell their precisions apart when the run has several
        boolean precisions = VaryingParams.of(cells.stream().map(Cell::params).toList()).keys()
                .contains(CellSpec.PRECISION);
        for (Cell cell : cells) {
            if (!BenchmarkNames.isMethod(cell.benchmark(), BenchmarkNames.INFERENCE_INFER) || !CellSpec.isModelCell(cell.params())) {
                continue;
            }
            try {
                CellSpec spec = CellSpec.of(cell.params(), config);
                Path target = RunLayout.of(runDir).activation(spec.modelName(), spec.batchSize(), spec.seqLen(),
                        spec.precision().id());
                Path file = Variants.file(spec.modelFile(), spec.precision());
                if (!done.add(target) || !Files.isRegularFile(file)) {
                    continue;
                }
                ActivationMemory m = ActivationMemory.of(file, spec.modelName(), spec.model().inputs(),
                        spec.batchSize(), spec.seqLen());
                write(new Entry(spec.modelName(), spec.precision().id(), m), target);
                out.println("inferbench: " + line(spec.modelName(), m) + (precisions ? " (" + spec.precision().id() + ")" : ""));
            } catch (BenchException | IOException | RuntimeException e) {
                // a TorchScript file, or a graph shape inference cannot read: the run's results stand without it
                out.println("inferbench: no activation memory for " + cell.label() + ": " + e.getMessage());
            }
        }
    }

    /** "activation memory of resnet50 at batch 1: peak 9.19 MiB while layer1.0.downsample.1 (BatchNormalization) runs". */
    public static String line(String model, ActivationMemory m) {
        ActivationMemory.Layer top = m.peakLayer();
        String at = top == null ? "" : " while " + top.node() + " (" + top.opType() + ") runs";
        String unknown = m.unknown() == 0 ? "" : "; " + m.unknown() + " tensors of unknown shape left out (a lower bound)";
        String seq = m.sequence() ? ", seqLen " + m.seqLen() : "";
        return String.format(Locale.ROOT, "activation memory of %s at batch %d%s: peak %s%s; largest tensor %s,"
                        + " all intermediates %s%s", model, m.batch(), seq, size(m.peakBytes()), at,
                size(m.largestBytes()), size(m.totalBytes()), unknown);
    }

    /** MiB, as every memory figure, from 1 MiB on; KiB below. */
    public static String size(long bytes) {
        return ByteUnits.size(bytes, 2);
    }

    /** Writes the entry to {@code target} whole (a temp file, then a rename). */
    public static void write(Entry entry, Path target) throws IOException {
        Files.createDirectories(target.getParent());
        AtomicFile.write(target, JSON.writeValueAsBytes(entry));
    }

    /** Every entry in a run folder, by model then batch then seqLen; a file that cannot be read is left out. */
    public static List<Entry> read(Path runDir) {
        Path dir = RunLayout.of(runDir).layers();
        List<Entry> entries = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return entries;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(f -> f.getFileName().toString().startsWith("activation-")
                    && f.getFileName().toString().endsWith(".json")).sorted().toList()) {
                try {
                    entries.add(JSON.readValue(f.toFile(), Entry.class));
                } catch (IOException damaged) {
                    // one damaged file costs its own section only
                }
            }
        } catch (IOException e) {
            return entries;
        }
        entries.sort(Comparator.comparing(Entry::model).thenComparing(Entry::precision)
                .thenComparingInt(e -> e.memory().batch()).thenComparingInt(e -> e.memory().seqLen()));
        return entries;
    }
}

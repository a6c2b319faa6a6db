package dev.inferbench.profile;

import dev.inferbench.AtomicFile;
import dev.inferbench.cell.BenchmarkNames;
import dev.inferbench.results.RunLayout;
import dev.inferbench.variant.Variants;
import dev.inferbench.BenchException;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.engine.OrtProfiledRun;
import dev.inferbench.input.SyntheticInputs;
import dev.inferbench.cell.Cell;
import dev.inferbench.cell.VaryingParams;
import java.util.Set;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.engine.EngineKind;
import dev.inferbench.model.stats.OnnxSummary;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * {@code --op-profile}: after the timed run, each {@code ort} cell once more, in a JVM of its own
 * ({@code run.ChildJvm}), with ONNX Runtime's session profiling on (so it cannot distort a timed fork), written to {@code op-profile/<cell-id>/}: ORT's own
 * profile, the operator types by total time and share (ops.json, ops.txt), the harness overhead, the operator
 * flame graph (session run -> operator type -> node) as collapsed stacks and async-profiler's HTML, and the same
 * time by layer and module with ORT's arena figures ({@link LayerTimes}: layers.json, layers.txt).
 */
public final class OpProfilePass {
    static final int WARMUP_CALLS = 10;
    static final int MEASURED_CALLS = 50;
    static final int TOP = 10;
    static final int LAYER_TOP = 5;
    /** Per-layer times and ORT's arena figures of a cell, beside ops.json. */
    public static final String LAYERS_JSON = "layers.json";
    /** The step's name for {@code cli.PassMain}, which runs it in a JVM of its own. */
    public static final String STEP = "op-profile";

    private OpProfilePass() {
    }

    public static void run(List<Cell> cells, BenchConfig config, Path runDir, PrintStream out) throws BenchException {
        for (Cell cell : cells) {
            // the inference-only cells of ort: cold-start and end-to-end cells time other things than the model
            if (!BenchmarkNames.isMethod(cell.benchmark(), BenchmarkNames.INFERENCE_INFER) || !CellSpec.isModelCell(cell.params())) {
                continue;
            }
            CellSpec spec = CellSpec.of(cell.params(), config);
            if (spec.engine() != EngineKind.ORT) {
                continue;
            }
            out.println();
            String params = VaryingParams.of(cells.stream().map(Cell::params).toList()).name(cell.params(),
                    Set.of(CellSpec.MODEL));
            String name = (spec.modelName() + " " + params).strip();
            out.println("inferbench: ORT operator profile of " + name + " (" + MEASURED_CALLS
                    + " calls after " + WARMUP_CALLS + ", profiling on, outside the timed forks):");
            try {
                Path dir = RunLayout.of(runDir).opProfile().resolve(cell.id());
                OpTable table = profile(cell, spec, dir);
                table.printTable(out, TOP);
                Path layers = dir.resolve(LAYERS_JSON);
                if (Files.isRegularFile(layers)) {
                    out.println("by layer (the model file's node each ORT node came from) and by module:");
                    LayerTimes.read(layers).printTable(out, LAYER_TOP);
                }
            } catch (BenchException e) {
                // the timed results are on disk already; one cell's profile failing costs only that profile
                out.println("inferbench: no operator profile of " + name + ": " + e.getMessage());
            }
        }
    }

    /** layers.json and layers.txt; a file the summary reader cannot read (TorchScript) has no layers to map to. */
    private static void layers(Cell cell, OrtProfile session, Path file, Path dir) throws IOException {
        OnnxSummary model;
        try {
            model = OnnxSummary.read(file);
        } catch (BenchException unreadable) {
            return;
        }
        LayerTimes layers = LayerTimes.of(cell.label(), session, MEASURED_CALLS, model);
        AtomicFile.write(dir.resolve(LAYERS_JSON), layers::writeJson);
        AtomicFile.write(dir.resolve("layers.txt"), printing(txt -> layers.printTable(txt,
                Math.max(layers.layers().size(), layers.modules().size()))));
    }

    static OpTable profile(Cell cell, CellSpec spec, Path dir) throws BenchException {
        // the file the cell ran: its fp16/int8 variant, made before the first fork
        Path file = Variants.file(spec.modelFile(), spec.precision());
        try {
            Files.createDirectories(dir);
            OrtProfiledRun run = OrtProfiledRun.run(file, spec.device(), spec.settings(),
                    sig -> SyntheticInputs.forModel(spec.inputs(), sig.inputs()),
                    WARMUP_CALLS, MEASURED_CALLS, dir.resolve("ort"));
            Path profileFile = Files.move(run.profileJson(), dir.resolve("ort-profile.json"), StandardCopyOption.REPLACE_EXISTING);
            OrtProfile session = OrtProfile.read(profileFile);
            OrtProfile profile = session.lastRuns(MEASURED_CALLS);
            OpTable table = OpTable.of(profile, run.callNanos());
            layers(cell, session, file, dir);
            AtomicFile.write(dir.resolve("ops.json"), table::writeJson);
            AtomicFile.write(dir.resolve("ops.txt"), printing(txt -> table.printTable(txt, table.ops().size())));
            Path collapsed = dir.resolve("ops.collapsed");
            AtomicFile.write(collapsed, printing(c -> OpTable.writeCollapsed(profile, c)));
            AtomicFile.write(dir.resolve("ops.html"), o -> FlameGraphs.merge(List.of(collapsed),
                    cell.label() + ": ORT operators (µs)", false, o));
            return table;
        } catch (IOException e) {
            throw new BenchException("cannot write the operator profile of " + cell.label() + " to " + dir + ": "
                    + e.getMessage() + "; expected a writable run folder", e);
        }
    }

    /** A file's content printed as UTF-8 text. */
    private static AtomicFile.Body<RuntimeException> printing(java.util.function.Consumer<PrintStream> body) {
        return out -> {
            PrintStream p = new PrintStream(out, false, StandardCharsets.UTF_8);
            body.accept(p);
            p.flush();
        };
    }
}

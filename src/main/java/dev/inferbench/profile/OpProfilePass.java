package dev.inferbench.profile;

import dev.inferbench.results.RunLayout;
import dev.inferbench.variant.Variants;
import dev.inferbench.BenchException;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.engine.OrtProfiledRun;
import dev.inferbench.input.SyntheticInputs;
import dev.inferbench.cell.Cell;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.engine.EngineKind;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * {@code --op-profile}: after the timed run, each {@code ort} cell once more in the launcher with ONNX Runtime's
 * session profiling on (so it cannot distort a timed fork), written to {@code op-profile/<cell-id>/}: ORT's own
 * profile, the operator types by total time and share (ops.json, ops.txt), the harness overhead, and the operator
 * flame graph (session run -> operator type -> node) as collapsed stacks and async-profiler's HTML.
 */
public final class OpProfilePass {
    static final int WARMUP_CALLS = 10;
    static final int MEASURED_CALLS = 50;
    static final int TOP = 10;

    private OpProfilePass() {
    }

    public static void run(List<Cell> cells, BenchConfig config, Path runDir, PrintStream out) throws BenchException {
        for (Cell cell : cells) {
            // the inference-only cells of ort: cold-start and end-to-end cells time other things than the model
            if (!cell.benchmark().endsWith("InferenceBenchmark.infer") || !CellSpec.isModelCell(cell.params())) {
                continue;
            }
            CellSpec spec = CellSpec.of(cell.params(), config);
            if (spec.engine() != EngineKind.ORT) {
                continue;
            }
            out.println();
            out.println("inferbench: ORT operator profile of " + cell.label() + " (" + MEASURED_CALLS
                    + " calls after " + WARMUP_CALLS + ", profiling on, outside the timed forks):");
            try {
                OpTable table = profile(cell, spec, RunLayout.of(runDir).opProfile().resolve(cell.id()));
                table.printTable(out, TOP);
            } catch (BenchException e) {
                // the timed results are on disk already; one cell's profile failing costs only that profile
                out.println("inferbench: no operator profile of " + cell.label() + ": " + e.getMessage());
            }
        }
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
            OrtProfile profile = OrtProfile.read(profileFile).lastRuns(MEASURED_CALLS);
            OpTable table = OpTable.of(profile, run.callNanos());
            try (OutputStream json = Files.newOutputStream(dir.resolve("ops.json"))) {
                table.writeJson(json);
            }
            try (PrintStream txt = new PrintStream(Files.newOutputStream(dir.resolve("ops.txt")), true, StandardCharsets.UTF_8)) {
                table.printTable(txt, table.ops().size());
            }
            Path collapsed = dir.resolve("ops.collapsed");
            try (PrintStream c = new PrintStream(Files.newOutputStream(collapsed), true, StandardCharsets.UTF_8)) {
                OpTable.writeCollapsed(profile, c);
            }
            try (OutputStream html = Files.newOutputStream(dir.resolve("ops.html"))) {
                FlameGraphs.merge(List.of(collapsed), cell.label() + ": ORT operators (µs)", false, html);
            }
            return table;
        } catch (IOException e) {
            throw new BenchException("cannot write the operator profile of " + cell.label() + " to " + dir + ": "
                    + e.getMessage() + "; expected a writable run folder", e);
        }
    }
}

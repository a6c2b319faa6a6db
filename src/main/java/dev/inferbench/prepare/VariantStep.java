package dev.inferbench.prepare;

import dev.inferbench.BenchException;
import dev.inferbench.cell.Cell;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.config.ModelEntry;
import dev.inferbench.run.ChildJvm;
import dev.inferbench.variant.Variants;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * The precision variants a model's cells use, made where making one runs an engine (int8 calibration runs ONNX
 * Runtime on the model): in a JVM of its own ({@link ChildJvm}), so that a model that crashes the engine costs one
 * line before any fork, not the launcher.
 */
public final class VariantStep {
    /** The step's name for {@code cli.PassMain}. */
    public static final String STEP = "variants";

    private VariantStep() {
    }

    static void inChild(List<Cell> cells, String model, BenchConfig config, PrintStream progress)
            throws BenchException {
        ChildJvm.mustEnd(ChildJvm.Request.of(STEP, cells, config, Path.of(".")), "the int8 calibration of " + model,
                "a model the engine can run at fp32", progress);
    }

    /** The variants themselves, in the JVM that {@link #inChild} started: every precision of {@code cells}. */
    public static void make(List<Cell> cells, BenchConfig config, PrintStream progress) throws BenchException {
        long seed = Variants.calibrationSeed(config.seed("input"));
        for (Cell c : cells) {
            CellSpec spec = CellSpec.of(c.params(), config);
            ModelEntry entry = spec.model();
            Variants.ensure(entry.name(), entry.file(), spec.precision(), entry.inputs(), seed, progress);
        }
    }
}

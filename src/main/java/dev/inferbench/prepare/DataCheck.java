package dev.inferbench.prepare;

import dev.inferbench.BenchException;
import dev.inferbench.cell.Cell;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.config.ModelEntry;
import dev.inferbench.engine.Device;
import dev.inferbench.engine.EngineKind;
import dev.inferbench.engine.EngineSettings;
import dev.inferbench.engine.InferenceEngine;
import dev.inferbench.input.data.DataSource;
import dev.inferbench.run.ChildJvm;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads every real-data source a model's cells name against the model's signature before JMH starts, so a missing
 * file, a test set with a gap or a .npy of the wrong dtype or shape costs one line and no forks. The signature comes
 * from ONNX Runtime, so the check runs in a JVM of its own ({@link ChildJvm}): a file that crashes the engine costs
 * one line, not the launcher.
 */
public final class DataCheck {
    /** The step's name for {@code cli.PassMain}. */
    public static final String STEP = "data-check";

    private DataCheck() {
    }

    /** Checks the real data of one model's {@code cells} in a child JVM; synthetic data needs no check. */
    static void inChild(List<Cell> cells, List<CellSpec> specs, BenchConfig config, PrintStream progress)
            throws BenchException {
        if (uses(specs).isEmpty()) {
            return;
        }
        ChildJvm.mustEnd(ChildJvm.Request.of(STEP, cells, config, Path.of(".")),
                "the data check of " + specs.get(0).modelName(), "data files the model's engine can read", progress);
    }

    /** The check itself, in the JVM that {@link #inChild} started: every model of {@code cells}. */
    public static void check(List<Cell> cells, BenchConfig config) throws BenchException {
        Map<String, List<CellSpec>> byModel = new LinkedHashMap<>();
        for (Cell c : cells) {
            CellSpec spec = CellSpec.of(c.params(), config);
            byModel.computeIfAbsent(spec.modelName(), m -> new ArrayList<>()).add(spec);
        }
        for (List<CellSpec> specs : byModel.values()) {
            check(specs, specs.get(0).model());
        }
    }

    private static Map<List<Object>, CellSpec> uses(List<CellSpec> specs) {
        Map<List<Object>, CellSpec> uses = new LinkedHashMap<>();
        for (CellSpec c : specs) {
            if (!c.syntheticData()) {
                uses.putIfAbsent(List.of(c.data(), c.batchSize(), c.seqLen()), c);
            }
        }
        return uses;
    }

    /** @param specs the cells of one model, {@code entry} */
    static void check(List<CellSpec> specs, ModelEntry entry) throws BenchException {
        Map<List<Object>, CellSpec> uses = uses(specs);
        if (uses.isEmpty()) {
            return;
        }
        EngineSettings settings = new EngineSettings(1, 0, EngineSettings.GraphOptimization.BASIC, entry.inputs());
        try (InferenceEngine engine = EngineKind.ORT.open(entry.file(), Device.CPU, settings)) {
            for (CellSpec use : uses.values()) {
                DataSource.batch(use.data(), use.inputs(), engine.signature().inputs());
            }
        }
    }
}

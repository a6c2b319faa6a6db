package dev.inferbench.prepare;

import dev.inferbench.BenchException;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.config.ModelEntry;
import dev.inferbench.engine.Device;
import dev.inferbench.engine.EngineKind;
import dev.inferbench.engine.EngineSettings;
import dev.inferbench.engine.InferenceEngine;
import dev.inferbench.input.data.DataSource;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads every real-data source a model's cells name against the model's signature before JMH starts, so a missing
 * file, a test set with a gap or a .npy of the wrong dtype or shape costs one line and no forks.
 */
final class DataCheck {
    private DataCheck() {
    }

    /** @param specs the cells of one model, {@code entry} */
    static void check(List<CellSpec> specs, ModelEntry entry) throws BenchException {
        Map<List<Object>, CellSpec> uses = new LinkedHashMap<>();
        for (CellSpec c : specs) {
            if (!c.syntheticData()) {
                uses.putIfAbsent(List.of(c.data(), c.batchSize(), c.seqLen()), c);
            }
        }
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

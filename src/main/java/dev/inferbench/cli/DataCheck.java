package dev.inferbench.cli;

import dev.inferbench.BenchException;
import dev.inferbench.config.ModelEntry;
import dev.inferbench.engine.Device;
import dev.inferbench.engine.EngineKind;
import dev.inferbench.engine.EngineSettings;
import dev.inferbench.engine.InferenceEngine;
import dev.inferbench.input.InputShapes;
import dev.inferbench.input.data.DataSource;
import dev.inferbench.run.Cell;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads every real-data source a model's cells name against the model's signature before JMH starts, so a missing
 * file, a test set with a gap or a .npy of the wrong dtype or shape costs one line and no forks.
 */
final class DataCheck {
    private DataCheck() {
    }

    static void check(List<Cell> cells, String model, ModelEntry entry, long seed) throws BenchException {
        Set<List<String>> uses = new LinkedHashSet<>();
        for (Cell c : cells) {
            String data = c.params().get("data");
            if (data != null && !data.equals(DataSource.SYNTHETIC) && model.equals(c.params().get("model"))) {
                uses.add(List.of(data, c.params().getOrDefault("batchSize", "1"),
                        c.params().getOrDefault("seqLen", String.valueOf(InputShapes.DEFAULT_SEQ_LEN))));
            }
        }
        if (uses.isEmpty()) {
            return;
        }
        EngineSettings settings = new EngineSettings(1, 0, EngineSettings.GraphOptimization.BASIC, entry.inputs());
        try (InferenceEngine engine = EngineKind.ORT.open(entry.file(), Device.parse("cpu"), settings)) {
            for (List<String> use : uses) {
                DataSource.batch(use.get(0), model, entry.file(), engine.signature().inputs(), entry.inputs(),
                        Integer.parseInt(use.get(1).trim()), Integer.parseInt(use.get(2).trim()), seed);
            }
        }
    }
}

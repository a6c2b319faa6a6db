package dev.inferbench.flow;

import dev.inferbench.BenchException;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.config.ModelEntry;
import dev.inferbench.model.ZooGenerator;
import dev.inferbench.model.stats.ModelStats;
import dev.inferbench.prepare.MatrixCheck;

import java.io.PrintStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code models} from its parsed flags to its figures: each named model's statistics at a sequence length, a zoo
 * model generated first where its file is missing or holds another zoo model.
 *
 * @param stats           per model, in the order named
 * @param generatedMillis per model generated now, how long it took
 */
public record ModelsFlow(List<ModelStats> stats, Map<String, Long> generatedMillis) {

    /** @param names the models to read (the registry's, in order, when empty); {@code err} gets the generator's lines */
    public static ModelsFlow run(BenchConfig config, List<String> names, Map<String, long[]> shapes, int seqLen,
                                 PrintStream err)
            throws BenchException {
        List<String> models = names.isEmpty() ? List.copyOf(config.models().keySet()) : names;
        ZooGenerator generator = new ZooGenerator(config.seed("zoo"), err);
        List<ModelStats> stats = new ArrayList<>();
        Map<String, Long> generatedMillis = new LinkedHashMap<>();
        for (String name : models) {
            ModelEntry entry = config.model(name);
            if (entry.zoo() != null && (!Files.exists(entry.file()) || MatrixCheck.holdsOtherZoo(entry))) {
                generatedMillis.put(name, generator.generate(entry.zoo().architecture(), entry.file()).millis());
            }
            stats.add(entry.withShapes(shapes).stats(seqLen));
        }
        return new ModelsFlow(stats, generatedMillis);
    }
}

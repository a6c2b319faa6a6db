package dev.inferbench.run;

import dev.inferbench.cell.Cell;
import dev.inferbench.BenchException;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.config.ModelEntry;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seeded mutations of real inputs fed to every reader of user-supplied files: each must either accept the input
 * or refuse it with a {@link BenchException} (one clear line); any other exception is a bug. The seed of a
 * failing mutant is in the assertion message, so it can be replayed.
 */
class FuzzTest {
    static final int MUTANTS = 1000;

    @FunctionalInterface
    interface Reader {
        void read(String text) throws BenchException;
    }

    static List<String> fuzz(String original, Reader reader) {
        List<String> escapes = new ArrayList<>();
        for (long seed = 1; seed <= MUTANTS; seed++) {
            String mutant = Mutator.mutate(original, seed);
            try {
                reader.read(mutant);
            } catch (BenchException expected) {
                assertThat(expected.getMessage()).as("seed %d", seed).isNotBlank();
            } catch (RuntimeException | StackOverflowError e) {
                escapes.add("seed " + seed + ": " + e);
            }
        }
        return escapes;
    }

    @Test
    void benchmarksPropertiesMutants() throws IOException {
        String original = Files.readString(Path.of(BenchConfig.FILE_NAME), StandardCharsets.UTF_8);
        assertThat(fuzz(original, text -> {
            BenchConfig c = BenchConfig.parse(text);
            for (String key : List.of("run.forks", "run.iterations", "run.warmupIterations")) {
                c.getInt(key);
            }
            c.seed("zoo");
            c.seed("input");
            for (String p : c.defaultParamNames()) {
                c.defaultParam(p);
            }
            for (ModelEntry m : c.models().values()) {
                c.model(m.name());
            }
        })).isEmpty();
    }

    @Test
    void planJsonMutants() throws BenchException {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("model", "resnet50");
        params.put("batchSize", "8");
        List<Cell> cells = List.of(new Cell("a.B.c", "sample", params), new Cell("a.B.c", "avgt", params));
        String original = Plan.of(List.of("-p", "model=resnet50", "-f", "3"), "/tmp/b.properties", 3,
                new Plan.Settings(1, "2 s", 10, "2 s"), Shard.parse("1/2"), cells,
                List.of(new Plan.Skipped(cells.get(1), "no GPU"))).toJson();
        assertThat(fuzz(original, text -> {
            Plan p = Plan.fromJson(text, "plan.json");
            p.runnableCells().forEach(Cell::id);
        })).isEmpty();
    }
}

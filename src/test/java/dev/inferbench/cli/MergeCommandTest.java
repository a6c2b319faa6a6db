package dev.inferbench.cli;

import dev.inferbench.ExitCode;
import dev.inferbench.cell.Cell;
import dev.inferbench.run.Plan;
import dev.inferbench.run.RunStore;
import dev.inferbench.run.Shard;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * merge on shard folders made by hand (a plan of two cells cut in two, no fork run): the environment comes along, and
 * the cells without their forks are named.
 */
class MergeCommandTest {
    @TempDir
    Path dir;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int merge(String... args) {
        String[] argv = new String[args.length + 1];
        argv[0] = "merge";
        System.arraycopy(args, 0, argv, 1, args.length);
        return new Main(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8))
                .run(argv);
    }

    private Path shard(String slice, String cpu) throws Exception {
        List<Cell> cells = List.of(new Cell("dev.inferbench.bench.InferenceBenchmark.infer", "avgt", Map.of("batchSize", "1")),
                new Cell("dev.inferbench.bench.InferenceBenchmark.infer", "avgt", Map.of("batchSize", "2")));
        Plan plan = Plan.of(List.of("-p", "batchSize=1,2"), null, 1, new Plan.Settings(0, "1 s", 1, "1 s"),
                Shard.parse(slice), cells, List.of());
        Path run = dir.resolve("shard-" + slice.replace('/', '-'));
        RunStore.create(run, plan);
        Files.writeString(run.resolve("environment.json"), "{\"cpu\":{\"model\":\"" + cpu + "\",\"cores\":2}}");
        return run;
    }

    @Test
    void theFirstShardsEnvironmentIsTheMergedRunsOne() throws Exception {
        Path one = shard("1/2", "Intel Xeon");
        Path two = shard("2/2", "Intel Xeon");
        Path merged = dir.resolve("merged");
        // no fork ran in these hand-made shards: the merge says which cells are short and does not exit 0
        assertThat(merge(one.toString(), two.toString(), "--run-dir", merged.toString()))
                .as(err.toString(StandardCharsets.UTF_8)).isEqualTo(ExitCode.FAILED);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("inferbench: cells short of forks")
                .contains("InferenceBenchmark.infer batchSize=1 (0 of 1 forks)");
        assertThat(merged.resolve("environment.json")).hasSameTextualContentAs(one.resolve("environment.json"));
        assertThat(out.toString(StandardCharsets.UTF_8)).doesNotContain("different CPUs", "history");
    }

    @Test
    void differentCpusAreNotedInOneLine() throws Exception {
        Path one = shard("1/2", "Intel Xeon");
        Path two = shard("2/2", "AMD EPYC");
        Path merged = dir.resolve("merged");
        assertThat(merge(one.toString(), two.toString(), "--run-dir", merged.toString())).isEqualTo(ExitCode.FAILED);
        assertThat(merged.resolve("environment.json")).hasSameTextualContentAs(one.resolve("environment.json"));
        assertThat(out.toString(StandardCharsets.UTF_8).lines().filter(l -> l.contains("different CPUs")))
                .containsExactly("inferbench: the shards ran on different CPUs (Intel Xeon; AMD EPYC); the merged run's"
                        + " environment.json is " + one.resolve("environment.json"));
    }
}

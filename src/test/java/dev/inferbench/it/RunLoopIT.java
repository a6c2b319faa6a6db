package dev.inferbench.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The run loop on the built jar: forks that crash are recorded and the run goes on; a run killed with SIGKILL
 * keeps every finished fork and resumes to the same result an uninterrupted run gives; shards merge into the whole
 * plan.
 */
class RunLoopIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path work;

    private static final String NO_SPARES = Jar.NO_SPARES;

    private static Jar.Run run(Path cwd, String args) throws IOException, InterruptedException {
        return Jar.run(cwd, args);
    }

    private static long landedForks(Path runDir) throws IOException {
        return Jar.landedForks(runDir.resolve("forks"));
    }

    private static int resultCells(Path runDir) {
        try {
            return JSON.readTree(runDir.resolve("jmh-result.json").toFile()).size();
        } catch (IOException e) {
            return 0; // not there yet
        }
    }

    /** Forks per cell in jmh-result.json, keyed by the cell's benchmark and params. */
    private static List<String> cellsAndForks(Path result) throws IOException {
        List<String> out = new ArrayList<>();
        for (JsonNode cell : JSON.readTree(result.toFile())) {
            out.add(cell.get("benchmark").asText() + " " + cell.get("mode").asText() + " " + cell.get("params")
                    + " forks=" + cell.get("forks").asInt() + " histograms="
                    + cell.get("primaryMetric").get("rawDataHistogram").size());
        }
        return out;
    }

    @Test
    void crashingForksAreRecordedAndTheRunGoesOn() throws Exception {
        Path cwd = Files.createDirectory(work.resolve("faults"));
        Jar.Run r = run(cwd, "FaultInjection -p fault=none,crash,exit,hang -f 2 -wi 0 -i 2 -r 100ms --fork-timeout 5s "
                + "--run-dir run" + NO_SPARES);
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(1);
        Path runDir = cwd.resolve("run");
        JsonNode cells = JSON.readTree(runDir.resolve("jmh-result.json").toFile());
        assertThat(cells).hasSize(1);
        assertThat(cells.get(0).get("params").get("fault").asText()).isEqualTo("none");
        assertThat(cells.get(0).get("forks").asInt()).isEqualTo(2);
        assertThat(r.err()).contains("fault=crash failed: forked VM failed with exit code 134 (SIGSEGV in")
                .contains("fault=exit failed: forked VM failed with exit code 3")
                .contains("fault=hang failed: still running after the fork timeout");
        Path crash = runDir.resolve("failed/FaultInjectionBenchmark.call-avgt-atIteration=1-fault=crash");
        assertThat(Files.readString(crash.resolve("fork-1.txt"))).contains("SIGSEGV").contains("Problematic frame");
        try (Stream<Path> s = Files.list(crash)) {
            assertThat(s.map(p -> p.getFileName().toString())).anyMatch(n -> n.matches("hs_err_pid\\d+\\.log"));
        }
        // the fork wrote its crash log into its own folder (-XX:ErrorFile), never into the directory it ran from
        try (Stream<Path> s = Files.list(cwd)) {
            assertThat(s.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith("hs_err"));
        }
        assertThat(Files.readString(crash.resolve("fork-1.txt")))
                .containsPattern("JVM crash log \\S*failed/" + crash.getFileName() + "/hs_err_pid\\d+\\.log");
        assertThat(Files.readString(runDir.resolve("summary.txt"))).contains("failed  FaultInjectionBenchmark.call "
                + "atIteration=1 fault=crash");
        assertThat(Files.readString(runDir.resolve("run.properties"))).contains("cells.failed=3");
    }

    /**
     * A default run's shape (1 warm-up, 2 measured iterations): the injected leak (1 MiB of native memory per 2^20
     * calls, never freed) is named as growth, the same benchmark without it is not: a verdict must not need more
     * measured iterations than a default run has, nor read the last one after the trial's teardown.
     */
    @Test
    void aLeakIsFlaggedOnADefaultRunsIterations() throws Exception {
        Path cwd = Files.createDirectory(work.resolve("leak"));
        Jar.Run r = run(cwd, "FaultInjection -p fault=none,leak -f 3 -wi 1 -w 200ms -i 2 -r 200ms --run-dir run" + NO_SPARES);
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        String summary = Files.readString(cwd.resolve("run/summary.txt"));
        assertThat(summary).containsPattern("fault=leak\\}: the resident set grows [0-9.]+ ± [0-9.]+ MiB per 10,000 calls"
                + " in the later half").doesNotContain("fault=none}: the resident set grows");
    }

    /**
     * SIGKILL as soon as the first fork has landed: what landed is in a valid jmh-result.json, and --resume finishes
     * the plan with every cell at its full fork count.
     */
    @Test
    void killedRunKeepsFinishedForksAndResumes() throws Exception {
        Path cwd = Files.createDirectory(work.resolve("killed"));
        String args = "-p model=mlp-tiny -p batchSize=1,2 -f 2 -wi 0 -i 2 -r 200ms --run-dir run" + NO_SPARES;
        Path runDir = cwd.resolve("run");
        Process p = Jar.command(cwd, args).redirectErrorStream(true).redirectOutput(cwd.resolve("out.txt").toFile()).start();
        Jar.awaitWhileAlive(p, () -> resultCells(runDir) >= 1);
        // the launcher has planned, fingerprinted the machine and run a fork: no engine's native library is in it
        assertThat(Jar.engineLibraries(p)).as("engine libraries the launcher mapped").isEmpty();
        p.destroyForcibly();
        assertThat(p.waitFor(1, TimeUnit.MINUTES)).isTrue();
        long landed = landedForks(runDir);
        assertThat(landed).isBetween(1L, 3L);
        List<String> kept = cellsAndForks(runDir.resolve("jmh-result.json"));
        assertThat(kept).isNotEmpty();

        Jar.Run resumed = run(cwd, "--resume run" + NO_SPARES);
        assertThat(resumed.code()).as(resumed.out() + resumed.err()).isZero();
        assertThat(resumed.out()).contains(landed + " fork" + (landed == 1 ? "" : "s") + " already landed");
        assertThat(landedForks(runDir)).isEqualTo(4);
        assertThat(cellsAndForks(runDir.resolve("jmh-result.json"))).hasSize(2)
                .allSatisfy(c -> assertThat(c).endsWith("forks=2 histograms=2"));
    }

    /**
     * Two shards merged give what one machine running the whole plan gives: the same cells (benchmark, mode,
     * params) with the same forks each, and the same plan. Folders of another plan are refused.
     */
    @Test
    void shardsMergeIntoTheWholePlan() throws Exception {
        Path cwd = Files.createDirectory(work.resolve("shards"));
        String args = "-p model=mlp-tiny -p batchSize=1,2 -p threads=1 -f 2 -wi 0 -i 1 -r 100ms" + NO_SPARES;
        Set<String> seen = new HashSet<>();
        for (int i = 1; i <= 2; i++) {
            Jar.Run r = run(cwd, args + " --shard " + i + "/2 --run-dir s" + i);
            assertThat(r.code()).as(r.err()).isZero();
            for (String cell : cellsAndForks(cwd.resolve("s" + i + "/jmh-result.json"))) {
                assertThat(seen.add(cell)).as("cell in one shard only: " + cell).isTrue();
            }
        }
        Jar.Run merge = run(cwd, "merge s1 s2 --run-dir whole");
        assertThat(merge.code()).as(merge.err()).isZero();
        List<String> merged = cellsAndForks(cwd.resolve("whole/jmh-result.json"));
        assertThat(merged).hasSize(2).containsExactlyInAnyOrderElementsOf(seen);
        assertThat(merged).allSatisfy(c -> assertThat(c).endsWith("forks=2 histograms=2"));
        JsonNode plan = JSON.readTree(cwd.resolve("whole/plan.json").toFile());
        assertThat(plan.get("cells")).hasSize(2);
        assertThat(plan.get("shard").asText()).isEqualTo("1/1");

        // the joined plan is the plan of the same command unsharded (its first fork is enough to write that plan)
        Jar.Run unsharded = run(cwd, args + " --max-forks 1 --run-dir unsharded");
        assertThat(unsharded.code()).as(unsharded.err()).isZero();
        JsonNode single = JSON.readTree(cwd.resolve("unsharded/plan.json").toFile());
        for (String field : List.of("id", "cells", "skipped", "forks", "settings", "args", "shard")) {
            assertThat(plan.get(field)).as("plan." + field).isEqualTo(single.get(field));
        }

        Jar.Run twice = run(cwd, "merge s1 s1");
        assertThat(twice.code()).isEqualTo(2);
        assertThat(twice.err()).contains("shard 1/2 is given twice");

        // another plan (other batch sizes): a slice with no cells of its own is enough to carry that plan
        Jar.Run other = run(cwd, "-p model=mlp-tiny -p batchSize=5 -p threads=1 -f 2 -wi 0 -i 1 -r 100ms --shard 2/2" + NO_SPARES
                + " --run-dir other");
        assertThat(other.code()).as(other.err()).isZero();
        String otherId = JSON.readTree(cwd.resolve("other/plan.json").toFile()).get("id").asText();
        Jar.Run mixed = run(cwd, "merge s1 other --run-dir mixed");
        assertThat(mixed.code()).isEqualTo(2);
        assertThat(mixed.err().strip()).isEqualTo("inferbench: other is from plan " + otherId + " but s1 is from plan "
                + plan.get("id").asText() + "; expected shards of one run (same command line and settings)");
        assertThat(cwd.resolve("mixed")).doesNotExist();
    }
}

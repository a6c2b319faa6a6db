package dev.inferbench.report;

import org.assertj.core.api.Assertions;
import java.util.ArrayList;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs from two machines side by side; shards of one plan joined into one run. */
class MultiRunTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private Path run(String name, String cpu, String planId, int... entries) throws Exception {
        return run(name, cpu, planId, "1/1", entries);
    }

    private Path run(String name, String cpu, String planId, String shard, int... entries) throws Exception {
        Path run = Files.createDirectories(dir.resolve(name));
        JsonNode all = JSON.readTree(ReportsTest.runA().resolve("jmh-result.json").toFile());
        ArrayNode some = JSON.createArrayNode();
        for (int e : entries) {
            some.add(all.get(e));
        }
        JSON.writeValue(run.resolve("jmh-result.json").toFile(), some);
        if (cpu != null) {
            Files.writeString(run.resolve("environment.json"), "{\"cpu\":{\"model\":\"" + cpu + "\"}}");
        }
        if (planId != null) {
            Files.writeString(run.resolve("plan.json"), "{\"format\":1,\"id\":\"" + planId + "\",\"shard\":\"" + shard + "\"}");
        }
        return run;
    }

    @Test
    void twoHostsSideBySide() throws Exception {
        Path xeon = run("20261122-100000-aaa", "Xeon 8375C", "p1", 0, 1);
        Path epyc = run("20261122-110000-aaa", "AMD EPYC", "p2", 0, 1, 2);
        Path out = dir.resolve("out");
        Reports.write(List.of(xeon, epyc), out, EnumSet.of(Reports.Format.MD, Reports.Format.CSV));
        String md = Files.readString(out.resolve("report.md"));
        assertThat(md).contains("| run | batchSize |", "Side by side:",
                "20261122-100000-aaa (Xeon 8375C) mean (µs)", "20261122-110000-aaa (AMD EPYC) mean (µs)",
                "## Environment: 20261122-100000-aaa", "## Environment: 20261122-110000-aaa");
        // the same figures in both runs: both are the best of their row
        // (the params every row shares are the line above the table, not columns)
        assertThat(md).contains("every cell: device=cpu, engine=ort, threads=0.",
                "| InferenceBenchmark.infer | 1 | **411.2** | **411.2** |");
        // a cell only one run has leaves the other's column empty
        assertThat(md).contains("every cell: atIteration=1, fault=none.", "| FaultInjectionBenchmark.call |  | 0.959 |");
        assertThat(Files.readAllLines(out.resolve("report.csv"))).hasSize(1 + 5);
    }

    @Test
    void shardsOfOnePlanAreOneRun() throws Exception {
        Path one = run("20261122-100000-aaa-shard-1-of-2", "Xeon", "same", "1/2", 0);
        Path two = run("20261122-100500-aaa-shard-2-of-2", "Xeon", "same", "2/2", 1, 2);
        ReportInput input = ReportInput.load(List.of(one, two));
        assertThat(input.runs()).hasSize(1);
        assertThat(input.rows()).hasSize(3).allSatisfy(r -> assertThat(r.run()).isEqualTo("20261122-100000-aaa-shard-1-of-2"));
        Path out = dir.resolve("out");
        Reports.write(List.of(one, two), out, EnumSet.of(Reports.Format.MD));
        assertThat(Files.readString(out.resolve("report.md"))).doesNotContain("Side by side", "| run |");
    }

    /** The same command run twice (same plan id, no shards), or one shard run twice: runs of their own, not shards. */
    @Test
    void theSameCommandRunTwiceIsTwoRuns() throws Exception {
        Path monday = run("20261122-100000-aaa", "Xeon", "same", 0, 1);
        Path tuesday = run("20261123-100000-aaa", "EPYC", "same", 0, 1);
        assertThat(ReportInput.load(List.of(monday, tuesday)).runs()).extracting(ReportInput.Run::label)
                .containsExactly("20261122-100000-aaa", "20261123-100000-aaa");
        Path again1 = run("20261122-120000-aaa-shard-1-of-2", "Xeon", "p", "1/2", 0);
        Path again2 = run("20261122-130000-aaa-shard-1-of-2", "Xeon", "p", "1/2", 0);
        assertThat(ReportInput.load(List.of(again1, again2)).runs()).hasSize(2);
    }

    /** hostA/run1 and hostB/run1: each keeps its figures, its column and its JMH export. */
    @Test
    void foldersOfTheSameNameStayApart() throws Exception {
        Path a = run("hostA/run1", "Xeon", "p1", 0);
        Path b = run("hostB/run1", "EPYC", "p2", 0);
        ReportInput input = ReportInput.load(List.of(a, b));
        assertThat(input.runs()).extracting(ReportInput.Run::label).containsExactly("hostA/run1", "hostB/run1");
        Path out = dir.resolve("out");
        List<Path> written = Reports.write(List.of(a, b), out, EnumSet.of(Reports.Format.MD, Reports.Format.JMH));
        assertThat(written).doesNotHaveDuplicates().hasSize(3);
        assertThat(Files.readString(out.resolve("report.md"))).contains("| run |", "hostA/run1 (Xeon)", "hostB/run1 (EPYC)");
    }

    private Path jmhRun(String name, String... cells) throws Exception {
        Path run = Files.createDirectories(dir.resolve(name));
        Files.writeString(run.resolve("jmh-result.json"), "[" + String.join(",", cells) + "]");
        return run;
    }

    private static String cell(String mode, double value, String unit) {
        return """
                {"benchmark": "b.InferenceBenchmark.infer", "mode": "%s", "forks": 3, "params": {"model": "m", "batchSize": "1"},
                 "primaryMetric": {"score": %s, "scoreUnit": "%s", "rawData": [[%s], [%s], [%s]]}, "secondaryMetrics": {}}
                """.formatted(mode, value, unit, value, value, value);
    }

    /** A rate and a time never share a column, and the best is picked in one unit: 500 us/op beats 0.6 ms/op. */
    @Test
    void modesGetTablesOfTheirOwnAndTheBestIsPickedInOneUnit() throws Exception {
        Path mixed = jmhRun("mixed", cell("thrpt", 2, "ops/ms"), cell("avgt", 0.5, "ms/op"));
        Path out = dir.resolve("out-mixed");
        Reports.write(List.of(mixed), out, EnumSet.of(Reports.Format.MD));
        String md = Files.readString(out.resolve("report.md"));
        assertThat(md).contains("## m (thrpt, ops/ms)", "## m (avgt)", "mean (ops/ms)", "| 2.000 |", "| 500.0 |");
        assertThat(md).doesNotContain("| **");

        Path a = jmhRun("a", cell("avgt", 0.6, "ms/op"));
        Path b = jmhRun("b", cell("avgt", 500, "us/op"));
        out = dir.resolve("out-units");
        Reports.write(List.of(a, b), out, EnumSet.of(Reports.Format.MD));
        md = Files.readString(out.resolve("report.md"));
        assertThat(md).contains("| a | 600.0 |", "| b | **500.0** |");
    }

    /** Exports keep every row: a mode per name where a cell has several, the run where there are several runs. */
    @Test
    void exportsNameEveryRowApart() throws Exception {
        Path modes = jmhRun("modes", cell("avgt", 0.5, "ms/op"), cell("sample", 0.7, "ms/op"), cell("thrpt", 2, "ops/ms"));
        Path out = dir.resolve("out-modes");
        Reports.write(List.of(modes), out, EnumSet.of(Reports.Format.BMF, Reports.Format.GAB));
        JsonNode bencher = JSON.readTree(out.resolve("bencher.json").toFile());
        assertThat(bencher.path("InferenceBenchmark.infer model=m batchSize=1 [avgt]").at("/latency/value").asDouble())
                .isEqualTo(500_000.0);
        assertThat(bencher.path("InferenceBenchmark.infer model=m batchSize=1 [sample]").at("/latency/value").asDouble())
                .isCloseTo(700_000.0, Assertions.within(1e-6));
        assertThat(bencher.path("InferenceBenchmark.infer model=m batchSize=1 [thrpt]").at("/throughput/value").asDouble())
                .isEqualTo(2.0);

        Path a = jmhRun("a", cell("avgt", 0.6, "ms/op"));
        Path b = jmhRun("b", cell("avgt", 0.5, "ms/op"));
        out = dir.resolve("out-runs");
        Reports.write(List.of(a, b), out, EnumSet.of(Reports.Format.GAB));
        List<String> names = new ArrayList<>();
        JSON.readTree(out.resolve("gab-smaller-is-better.json").toFile()).forEach(e -> names.add(e.path("name").asText()));
        assertThat(names).doesNotHaveDuplicates().contains("a InferenceBenchmark.infer model=m batchSize=1 mean",
                "b InferenceBenchmark.infer model=m batchSize=1 mean");
    }

    private static String batchCell(int batch, double samples) {
        return cell("avgt", 0.5, "ms/op").replace("\"batchSize\": \"1\"", "\"batchSize\": \"" + batch + "\"")
                .replace("\"secondaryMetrics\": {}", ("\"secondaryMetrics\": {\"samples\": {\"score\": %s, \"scoreUnit\":"
                        + " \"samples/s\", \"rawData\": [[%s], [%s], [%s]]}}").formatted(samples, samples, samples, samples));
    }

    /**
     * Two runs of one cell are two readings of batch 1, not two batch sizes: no finding across batch sizes mixes runs,
     * and where each run has a series, each line names its run.
     */
    @Test
    void batchFindingsStayWithinOneRun() throws Exception {
        Path a = jmhRun("run-a", batchCell(1, 302533));
        Path b = jmhRun("run-b", batchCell(1, 210014));
        Path out = dir.resolve("out-same-cell");
        Reports.write(List.of(a, b), out, EnumSet.of(Reports.Format.MD, Reports.Format.HTML));
        String md = Files.readString(out.resolve("report.md"));
        assertThat(md).contains("| run |", "| run-a |", "| run-b |").doesNotContain("throughput:", "saturates");
        assertThat(Files.readString(out.resolve("report.html"))).doesNotContain("throughput:");

        Path c = jmhRun("run-c", batchCell(1, 100), batchCell(8, 400));
        Path d = jmhRun("run-d", batchCell(1, 100), batchCell(8, 105));
        out = dir.resolve("out-two-series");
        Reports.write(List.of(c, d), out, EnumSet.of(Reports.Format.MD));
        assertThat(Files.readString(out.resolve("report.md")).lines().filter(l -> l.contains("throughput:")))
                .containsExactly("- throughput: m on ? in run run-c still rises at batch 8 (+300 % over batch 1;"
                                + " samples/s by batch 1: 100.0, 8: 400.0)",
                        "- throughput: m on ? in run run-d saturates at batch 1 (no larger batch serves 10 % more;"
                                + " samples/s by batch 1: 100.0, 8: 105.0)");
    }

    /** A model given by a long path, and two models whose names differ only in characters a file name cannot hold. */
    @Test
    void plotFilesForLongAndLookAlikeModelNames() throws Exception {
        String longModel = "/data/models/" + "very-long-directory-name/".repeat(12) + "model.onnx";
        List<String> cells = new ArrayList<>();
        for (String model : List.of(longModel, "a b", "a_b")) {
            for (String batch : List.of("1", "8")) {
                cells.add(cell("avgt", 0.5, "ms/op").replace("\"model\": \"m\"", "\"model\": \"" + model + "\"")
                        .replace("\"batchSize\": \"1\"", "\"batchSize\": \"" + batch + "\""));
            }
        }
        Path run = jmhRun("plots", cells.toArray(String[]::new));
        List<Path> written = Reports.write(List.of(run), dir.resolve("out-plots"), EnumSet.of(Reports.Format.PLOTS));
        assertThat(written).doesNotHaveDuplicates().allSatisfy(f -> {
            assertThat(f).isRegularFile();
            assertThat(f.getFileName().toString().length()).isLessThan(255);
        });
        assertThat(written.stream().map(f -> f.getFileName().toString()))
                .contains("a_b-latency-vs-batch.svg", "a_b-2-latency-vs-batch.svg");
    }

    /** A param named like a fixed CSV column (JMH benchmarks may have a param "mode") keeps both columns apart. */
    @Test
    void csvColumnNamesStayUnique() throws Exception {
        Path run = jmhRun("csv", cell("avgt", 0.5, "ms/op").replace("\"batchSize\": \"1\"", "\"mode\": \"fast\", \"unit\": \"x\""));
        Reports.write(List.of(run), dir.resolve("out-csv"), EnumSet.of(Reports.Format.CSV));
        List<String> lines = Files.readAllLines(dir.resolve("out-csv").resolve("report.csv"));
        List<String> header = List.of(lines.get(0).split(","));
        assertThat(header).doesNotHaveDuplicates().contains("mode", "param.mode", "unit", "param.unit");
        assertThat(lines.get(1)).startsWith("csv,InferenceBenchmark.infer,avgt,m,fast,x,ms/op,");
    }
}
